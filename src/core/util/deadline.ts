import { setMaxListeners } from 'node:events';

/** An abort signal that fires when its parent aborts or its time runs out; `dispose()` frees the timer. */
export interface Deadline {
  readonly signal: AbortSignal;
  /** True when the deadline itself (not the parent) aborted the signal. */
  readonly expired: boolean;
  /**
   * Stops the clock until the matching `resume()` (a person deciding on a tool call); pauses nest, and the
   * time left when the first began is what remains after the last ends.
   */
  pause(): void;
  resume(): void;
  dispose(): void;
}

/**
 * Links `parent` and a timeout into one signal. One controller and one timer: about a tenth of the cost of
 * `AbortSignal.any([parent, AbortSignal.timeout(ms)])` on Node 20, which matters on a per-tool-call path.
 */
export function createDeadline(ms: number, parent?: AbortSignal, reason = 'deadline'): Deadline {
  const controller = new AbortController();
  // The openai SDK adds a listener per request attempt; a long run with retries passes Node's default of 10.
  setMaxListeners(0, controller.signal);
  let expired = false;
  let disposed = false;
  let pauses = 0;
  let endsAt = Date.now() + ms;
  let left = ms;
  const onParentAbort = () => controller.abort(parent?.reason);
  const expire = () => {
    expired = true;
    controller.abort(new DOMException(`${reason} after ${ms} ms`, 'TimeoutError'));
  };
  let timer: NodeJS.Timeout | undefined = setTimeout(expire, ms);
  if (parent?.aborted) controller.abort(parent.reason);
  else parent?.addEventListener('abort', onParentAbort, { once: true });
  return {
    signal: controller.signal,
    get expired() {
      return expired;
    },
    pause() {
      if (pauses++ > 0 || disposed) return;
      clearTimeout(timer);
      timer = undefined;
      left = Math.max(0, endsAt - Date.now());
    },
    resume() {
      if (pauses === 0 || --pauses > 0 || disposed || controller.signal.aborted) return;
      endsAt = Date.now() + left;
      timer = setTimeout(expire, left);
    },
    dispose() {
      disposed = true;
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
    },
  };
}
