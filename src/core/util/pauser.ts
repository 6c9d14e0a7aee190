import { setImmediate as nextTurn } from 'node:timers/promises';

/** Longest a loop over data that is already there runs before it lets timers and other I/O in. */
export const PAUSE_EVERY_MS = 10;

/**
 * A stream whose data is already buffered is read in microtasks, which never let anything else run; call
 * the returned function once per item. Every {@link PAUSE_EVERY_MS} it returns a promise that waits one turn
 * of the event loop, to be awaited; otherwise `undefined`, so the common case costs no promise and no tick.
 * Callers that are due at once share one turn.
 */
export function createPauser(
  now: () => number = performance.now.bind(performance),
): () => Promise<void> | undefined {
  let since = now();
  let turn: Promise<void> | undefined;
  return () => {
    if (now() - since < PAUSE_EVERY_MS) return undefined;
    turn ??= nextTurn().then(() => {
      since = now();
      turn = undefined;
    });
    return turn;
  };
}

/** Callers waiting for their turn, first come first served. */
const waiting: (() => void)[] = [];
let stepScheduled = false;
/** When the work going on now began: the last time the event loop was seen to turn. */
let lastTurn = performance.now();
/** A marker that runs at the loop's next check phase; while it is pending, the loop has not turned. */
let markerPending = false;
const mark = () => {
  markerPending = false;
};
/** Waiters let go per turn: doubled while turns stay short, halved when one ran long. */
let batch = 1;
const MAX_BATCH = 32;

/** Lets a batch of waiters go (their work runs in the microtasks right after), then lets the loop turn. */
function step(): void {
  stepScheduled = false;
  const now = performance.now();
  batch = now - lastTurn < PAUSE_EVERY_MS / 2 ? Math.min(batch * 2, MAX_BATCH) : Math.max(1, batch >> 1);
  lastTurn = now;
  for (const resolve of waiting.splice(0, batch)) resolve();
  if (waiting.length > 0) {
    stepScheduled = true;
    setImmediate(step);
  }
}

/**
 * The process's one pauser, shared by every run, stream and model call. Once work has gone on for
 * {@link PAUSE_EVERY_MS} without the event loop turning, callers queue and are let go in turns of the
 * loop (as many per turn as keep a turn near {@link PAUSE_EVERY_MS}), so timers and I/O get in between however many channels answer at once (a thousand replies landing
 * together would otherwise be handled in one block). Returns `undefined` (nothing to await) when there is no
 * need to wait, so the common case costs a clock read.
 */
export function pauseIfBusy(): Promise<void> | undefined {
  const now = performance.now();
  if (!markerPending) {
    // The loop has turned since the marker ran (or it never was set): the work going on began just now.
    lastTurn = now;
    markerPending = true;
    setImmediate(mark);
  }
  if (waiting.length === 0 && now - lastTurn < PAUSE_EVERY_MS) return undefined;
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    if (!stepScheduled) {
      stepScheduled = true;
      setImmediate(step);
    }
  });
}
