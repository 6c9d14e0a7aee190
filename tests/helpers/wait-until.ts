/** How long to wait and what for (named in the error when the deadline passes). */
export interface WaitOptions {
  /** Default 5 s: well under the test timeout, so the failure names what never happened. */
  timeoutMs?: number;
  /** A function is called at the deadline, so the error can show the state then. */
  what: string | (() => string);
}

const DEFAULT_TIMEOUT_MS = 5000;
const POLL_MS = 2;

/** Resolves once `condition()` holds, checked every few milliseconds; rejects with a clear error at the deadline. */
export function waitUntil(
  condition: () => boolean,
  { timeoutMs = DEFAULT_TIMEOUT_MS, what }: WaitOptions,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  return new Promise<void>((resolve, reject) => {
    const check = () => {
      try {
        if (condition()) return resolve();
      } catch (err) {
        return reject(err);
      }
      if (Date.now() >= end) return reject(timedOut(timeoutMs, what));
      setTimeout(check, POLL_MS);
    };
    check();
  });
}

/** Settles as `promise` does, or rejects with a clear error at the deadline: an event-driven wait, bounded. */
export function withDeadline<T>(
  promise: PromiseLike<T>,
  { timeoutMs = DEFAULT_TIMEOUT_MS, what }: WaitOptions,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(timedOut(timeoutMs, what)), timeoutMs);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

function timedOut(timeoutMs: number, what: WaitOptions['what']): Error {
  return new Error(
    `timed out after ${timeoutMs} ms waiting for ${typeof what === 'function' ? what() : what}`,
  );
}
