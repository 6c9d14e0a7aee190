/** Failed attempts per key (a client address), held back exponentially. */
export interface Backoff {
  /** Milliseconds `key` must wait before its next attempt is even looked at; 0 when it may try now. */
  wait(key: string): number;
  /** Counts a failed attempt of `key`. */
  fail(key: string): void;
  /** Forgets `key`'s failures (it proved itself). */
  succeed(key: string): void;
}

/** How {@link createBackoff} holds back. */
export interface BackoffOptions {
  /** Failures allowed before any wait (typos happen). */
  free?: number;
  /** The first wait; each further failure doubles it. */
  baseMs?: number;
  /** The longest wait; a key quiet this long past its wait starts afresh. */
  maxMs?: number;
  /** Keys remembered at most (the oldest are forgotten first), so guessing from many addresses costs bounded memory. */
  maxKeys?: number;
  now?: () => number;
}

interface Entry {
  failures: number;
  /** When the latest failure was. */
  last: number;
  /** Until when the key must wait. */
  until: number;
}

/** After `free` failures, each failure makes the key wait `baseMs`, then twice that, … up to `maxMs`. */
export function createBackoff(options: BackoffOptions = {}): Backoff {
  const { free = 3, baseMs = 1000, maxMs = 15 * 60_000, maxKeys = 10_000, now = Date.now } = options;
  const entries = new Map<string, Entry>();
  const current = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry && now() > Math.max(entry.until, entry.last) + maxMs) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  return {
    wait: (key) => Math.max(0, (current(key)?.until ?? 0) - now()),
    fail(key) {
      const entry = current(key) ?? { failures: 0, last: 0, until: 0 };
      entry.failures += 1;
      entry.last = now();
      if (entry.failures > free) {
        entry.until = now() + Math.min(maxMs, baseMs * 2 ** Math.min(30, entry.failures - free - 1));
      }
      entries.delete(key);
      entries.set(key, entry);
      for (const oldest of entries.keys()) {
        if (entries.size <= maxKeys) break;
        entries.delete(oldest);
      }
    },
    succeed: (key) => void entries.delete(key),
  };
}
