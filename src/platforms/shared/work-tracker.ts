import { setMaxListeners } from 'node:events';
import { ShutdownAbort } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';

/** How long cancelled runs get, after the grace period, to show their last message. */
export const CANCEL_GRACE_MS = 3000;

/** A platform's work in flight (events being handled, the runs they started), and its orderly end. */
export interface WorkTracker {
  /** Aborted once shutdown's grace period is over: runs still going are cancelled. */
  readonly signal: AbortSignal;
  /** Counts `promise` as in flight until it settles; returns it unchanged. */
  track<T>(promise: Promise<T>): Promise<T>;
  /** Runs `task` in the background, in flight until done; a throw is logged as `what` failing. */
  run(what: string, task: (signal: AbortSignal) => Promise<void>): void;
  /** Resolves once nothing is in flight, including work started while waiting. */
  idle(): Promise<void>;
  /**
   * Shutdown: lets work in flight finish for `graceMs`, then cancels what is left (each run ends with the
   * restart notice) and waits a little more for those notices to go out.
   */
  drain(graceMs: number): Promise<void>;
}

/** Creates a tracker whose failures are logged on `logger`. */
export function createWorkTracker(logger: Logger): WorkTracker {
  const inFlight = new Set<Promise<unknown>>();
  const controller = new AbortController();
  // Every run and queued question listens to this one signal.
  setMaxListeners(0, controller.signal);
  let draining: Promise<void> | undefined;

  const track = <T>(promise: Promise<T>): Promise<T> => {
    const settled = promise.then(
      () => {},
      () => {},
    );
    inFlight.add(settled);
    void settled.then(() => inFlight.delete(settled));
    return promise;
  };
  const idle = async () => {
    while (inFlight.size > 0) await Promise.all(inFlight);
  };

  return {
    signal: controller.signal,
    track,
    run(what, task) {
      void track(
        Promise.resolve()
          .then(() => task(controller.signal))
          .catch((err: unknown) => logger.error({ err, what }, 'a background task failed')),
      );
    },
    idle,
    drain(graceMs) {
      draining ??= (async () => {
        if (await within(idle(), graceMs)) return;
        controller.abort(new ShutdownAbort());
        await within(idle(), CANCEL_GRACE_MS);
      })();
      return draining;
    },
  };
}

/** Waits for `work` up to `ms`; true when it finished in time. */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const done = await Promise.race([
    work.then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]);
  clearTimeout(timer);
  return done;
}
