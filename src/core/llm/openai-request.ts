import { leanFetch, type ModelResponse } from './lean-fetch.js';
import { retryAfterMs } from './retry-after.js';
import type { CompletionRequest } from './types.js';

/** The SDK's options of one request, and what to do once its response starts. */
export interface Call {
  options: { signal: AbortSignal } | undefined;
  responded(): void;
}

/** A request's time until its response starts, across the SDK's retries (see OpenAIChatModelOptions.handOff). */
export interface Deadline {
  signal: AbortSignal;
  readonly expired: boolean;
  /** The response started: the rest is bounded by the idle limit, and by the run's own signal. */
  stop(): void;
  dispose(): void;
}

/** Starts the time a request has until its response starts, a child of the run's signal. */
export function startDeadline(parent: AbortSignal | undefined, ms: number): Deadline {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new Error('model request deadline'));
  }, ms);
  const onAbort = () => controller.abort(parent?.reason);
  if (parent?.aborted) controller.abort(parent.reason);
  else parent?.addEventListener('abort', onAbort, { once: true });
  const stop = () => clearTimeout(timer);
  return {
    signal: controller.signal,
    get expired() {
      return expired;
    },
    stop,
    dispose() {
      stop();
      parent?.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * leanFetch, with a 429 that asks to wait longer than `afterMs` marked `x-should-retry: false`, which the SDK
 * obeys: the next endpoint is tried at once instead of the SDK backing off and asking again.
 */
export function longWaitsFinal(afterMs: number): typeof leanFetch {
  return async (input, init) => {
    const response = (await leanFetch(input, init)) as unknown as ModelResponse;
    if (response.status !== 429) return response as unknown as Response;
    const wait = retryAfterMs(response.headers);
    if (wait === undefined || wait <= afterMs) return response as unknown as Response;
    const { headers } = response;
    const final = Object.create(response) as Record<string, unknown>;
    final.headers = {
      get: (name: string) => (name.toLowerCase() === 'x-should-retry' ? 'false' : headers.get(name)),
      entries: () => headers.entries(),
    };
    return final as unknown as Response;
  };
}

/**
 * The request's own signal, handed to the SDK as is: it adds one abort listener per request and never removes
 * it, which is why CompletionRequest.signal must live about as long as a run, not as long as the process.
 * With a deadline, the deadline's (a child of the request's, for this request only).
 */
export function signalOf(
  request: CompletionRequest,
  deadline: Deadline | undefined,
): { signal: AbortSignal } | undefined {
  if (deadline) return { signal: deadline.signal };
  return request.signal ? { signal: request.signal } : undefined;
}
