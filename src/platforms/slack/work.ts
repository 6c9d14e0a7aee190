import { setMaxListeners } from 'node:events';
/** The adapter's work in flight: events being dispatched and the runs they started. */
export interface Work {
  /** Counts `promise` as in flight until it settles; returns it unchanged. */
  track<T>(promise: Promise<T>): Promise<T>;
  /** Starts `task` in the background, in flight until done; it must not throw (a throw is passed to `onError`). */
  run(task: (signal: AbortSignal) => Promise<void>): void;
  /** Resolves once nothing is in flight, including work started while waiting. */
  idle(): Promise<void>;
  /** Cancels every run, current and future (used on shutdown once the grace period is over). */
  abort(): void;
}

/** Tracks background work so that shutdown (and tests) can wait for it; errors go to `onError`. */
export function createWork(onError: (err: unknown) => void): Work {
  const inFlight = new Set<Promise<unknown>>();
  const controller = new AbortController();
  // Every run and queued question listens to this one signal.
  setMaxListeners(0, controller.signal);
  const track = <T>(promise: Promise<T>): Promise<T> => {
    const settled = promise.then(
      () => {},
      () => {},
    );
    inFlight.add(settled);
    void settled.then(() => inFlight.delete(settled));
    return promise;
  };
  return {
    track,
    run(task) {
      void track(
        Promise.resolve()
          .then(() => task(controller.signal))
          .catch(onError),
      );
    },
    async idle() {
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
    abort: () => controller.abort(),
  };
}
