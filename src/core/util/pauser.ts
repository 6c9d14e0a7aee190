/** Longest a loop over data that is already there runs before it lets timers and other I/O in. */
export const PAUSE_EVERY_MS = 10;

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
 * The process's one pauser, shared by every run, stream and model call; call it between pieces of work.
 * Once work has gone on for {@link PAUSE_EVERY_MS} without the event loop turning, callers queue and are
 * let go in turns of the loop (as many per turn as keep a turn near {@link PAUSE_EVERY_MS}), so timers and
 * I/O get in between however many channels answer at once: a thousand replies landing together would
 * otherwise be handled in one block, and a stream whose data is already buffered would be read in
 * microtasks that never let anything else run. Returns `undefined` (nothing to await) when there is no
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
