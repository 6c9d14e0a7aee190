/** The median of `values` (NaN when empty). */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** The p-th percentile (nearest rank) of `values`. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((x, y) => x - y);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** Milliseconds since `start` (a `performance.now()` reading). */
export function since(start: number): number {
  return performance.now() - start;
}

/** Rounds to `digits` decimals. */
export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Bytes as MB with one decimal. */
export function mb(bytes: number): number {
  return round(bytes / 1024 / 1024, 1);
}

/** Runs `task(i)` for i in [0, total) with at most `concurrency` in flight; resolves when all settled. */
export async function pool(
  total: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < total) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
}

/**
 * Keeps `concurrency` tasks in flight for `durationMs`, then waits for the last ones to finish; resolves
 * with the tasks completed, the wall time and the process CPU time (user + system) both took.
 */
export async function sustain(
  concurrency: number,
  durationMs: number,
  task: () => Promise<void>,
): Promise<{ done: number; wallMs: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  let done = 0;
  const worker = async () => {
    while (since(start) < durationMs) {
      await task();
      done++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { done, wallMs: since(start), cpuMs: cpuMsSince(cpu) };
}

/** CPU milliseconds (user + system) this process used since the `process.cpuUsage()` reading `start`. */
export function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
