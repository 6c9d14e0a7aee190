import { setImmediate as nextTurn } from 'node:timers/promises';

/** Longest a loop over data that is already there runs before it lets timers and other I/O in. */
export const PAUSE_EVERY_MS = 10;

/**
 * A stream whose data is already buffered is read in microtasks, which never let anything else run; call
 * the returned function once per item, and every {@link PAUSE_EVERY_MS} it waits one turn of the event loop.
 */
export function createPauser(now: () => number = performance.now.bind(performance)): () => Promise<void> {
  let since = now();
  return async () => {
    if (now() - since < PAUSE_EVERY_MS) return;
    await nextTurn();
    since = now();
  };
}
