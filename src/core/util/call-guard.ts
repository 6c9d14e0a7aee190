/** The bounds of one call (a time limit and its run's signal) as one promise, and a signal made only if asked for. */
export interface CallGuard {
  /** Rejects with the reason once the time is up or the parent aborts; never resolves. */
  readonly stopped: Promise<never>;
  /** True when the time limit (not the parent) ended the call. */
  readonly expired: boolean;
  /** An abort signal for the call, created on first read: most tools never read it. */
  readonly signal: AbortSignal;
  dispose(): void;
}

/**
 * Guards one call: `stopped` rejects when `ms` pass or `parent` aborts, whichever is first. Unlike
 * createDeadline it makes no AbortController unless the call reads `signal`, which on a path run for every
 * tool call saves most of its cost.
 */
export function createCallGuard(ms: number, parent: AbortSignal, reason = 'deadline'): CallGuard {
  let controller: AbortController | undefined;
  let expired = false;
  let ended: { reason: unknown } | undefined;
  let reject: (reason: unknown) => void = () => {};
  const stopped = new Promise<never>((_, r) => {
    reject = r;
  });
  stopped.catch(() => {});
  const end = (why: unknown) => {
    if (ended) return;
    ended = { reason: why };
    controller?.abort(why);
    reject(why);
  };
  const onParentAbort = () => end(parent.reason);
  const timer = setTimeout(() => {
    expired = true;
    end(new DOMException(`${reason} after ${ms} ms`, 'TimeoutError'));
  }, ms);
  if (parent.aborted) end(parent.reason);
  else parent.addEventListener('abort', onParentAbort, { once: true });
  return {
    stopped,
    get expired() {
      return expired;
    },
    get signal() {
      if (!controller) {
        controller = new AbortController();
        if (ended) controller.abort(ended.reason);
      }
      return controller.signal;
    },
    dispose() {
      clearTimeout(timer);
      parent.removeEventListener('abort', onParentAbort);
    },
  };
}
