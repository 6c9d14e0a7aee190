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
 * with the tasks completed, the wall time and the process CPU time (user + system) both took. With `gc` (a
 * full collection, from `--expose-gc`), each batch pays for collecting its own garbage and no other's: the
 * heap is collected before the batch (uncounted) and after it, and what that collection cost beyond a
 * second one straight after (marking the long-lived heap, the same for every batch) is counted.
 */
export async function sustain(
  concurrency: number,
  durationMs: number,
  task: () => Promise<void>,
  gc?: () => void,
): Promise<{ done: number; wallMs: number; cpuMs: number }> {
  gc?.();
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
  const wallMs = since(start);
  const cpuMs = cpuMsSince(cpu);
  if (!gc) return { done, wallMs, cpuMs };
  const garbage = process.cpuUsage();
  gc();
  const collected = cpuMsSince(garbage);
  const live = process.cpuUsage();
  gc();
  return { done, wallMs, cpuMs: cpuMs + Math.max(0, collected - cpuMsSince(live)) };
}

/** CPU milliseconds (user + system) this process used since the `process.cpuUsage()` reading `start`. */
export function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
