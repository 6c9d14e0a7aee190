import { setImmediate as nextTurn } from 'node:timers/promises';

/** Longest a loop over data that is already there runs before it lets timers and other I/O in. */
export const PAUSE_EVERY_MS = 10;

/**
 * A stream whose data is already buffered is read in microtasks, which never let anything else run; call
 * the returned function once per item. Every {@link PAUSE_EVERY_MS} it returns a promise that waits one turn
 * of the event loop, to be awaited; otherwise `undefined`, so the common case costs no promise and no tick.
 */
export function createPauser(
  now: () => number = performance.now.bind(performance),
): () => Promise<void> | undefined {
  let since = now();
  return () => {
    if (now() - since < PAUSE_EVERY_MS) return undefined;
    return nextTurn().then(() => {
      since = now();
    });
  };
}
