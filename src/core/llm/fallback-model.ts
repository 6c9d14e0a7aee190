import { isAbortError, ModelError } from '../errors.js';
import type { Logger } from '../logger.js';
import { type CircuitBreaker, createCircuitBreaker } from './circuit-breaker.js';
import { retryAfterMs } from './retry-after.js';
import type { ChatModel, Completion, CompletionRequest } from './types.js';

/** One endpoint of a fallback chain: a client over its base URL, with its own model and key. */
export interface ModelEndpoint {
  /** `model@host` (see endpointName): how notices, logs and metrics name it. */
  name: string;
  /** The model it is asked for (the primary's may be replaced per request, see CompletionRequest.model). */
  model: string;
  chat: ChatModel;
}

/** Told of every request a fallback answered (metrics). */
export interface ModelFallbackObserver {
  /** `from`: the chain's primary (`model@host`); `to`: the fallback that answered. */
  modelFallback?(from: string, to: string): void;
}

/** Options of {@link createFallbackModel}. */
export interface FallbackModelOptions {
  /** The primary (OPENAI_BASE_URL with LLM_MODEL or SUMMARY_MODEL) first, then LLM_FALLBACK in order. */
  endpoints: readonly ModelEndpoint[];
  /** LLM_FALLBACK_AFTER_MS: a 429 asking to wait longer than this moves on at once. */
  afterMs: number;
  /** LLM_FALLBACK_COOLDOWN_MS: how long a failing endpoint is skipped. */
  cooldownMs: number;
  now?: (() => number) | undefined;
  /** One per endpoint, shared with another chain over the same endpoints (summaries); fresh ones when unset. */
  breakers?: readonly CircuitBreaker[] | undefined;
  observer?: ModelFallbackObserver | undefined;
  logger?: Logger | undefined;
}

/** A chat model over several endpoints, tried in order. */
export interface FallbackModel extends ChatModel {
  /** The model a request asking for `model` (the primary's own when unset) would start on now. */
  startingModel(model?: string): string;
}

/**
 * A ChatModel that tries its endpoints in order, each behind a circuit breaker.
 *
 * - A request moves to the next endpoint when the current one is unavailable: a failed connection, a timeout,
 *   a 5xx, a connection that broke before anything was shown, or a 429 (at once when it asks to wait longer
 *   than `afterMs`; after the SDK's retries otherwise). Any other error (a 4xx: the request itself is wrong
 *   and would be elsewhere too; a malformed reply; a cancellation) ends the request as it would without
 *   fallbacks.
 * - Once a piece of the reply or of the reasoning has been passed on to the asker, a failure is final: a
 *   stream that breaks midway fails the request as it always did, with no switch, since the asker has seen
 *   part of one model's answer and another's would not continue it.
 * - An unavailable endpoint's circuit opens: later requests skip it for `cooldownMs`, then one request tries
 *   it again and its success closes the circuit. A 429 that was only asked to wait briefly moves this request
 *   on without opening the circuit. When every circuit is open, the primary is tried anyway.
 * - `request.model` (a channel's model setting) applies to the primary only; fallbacks ask for their own.
 * - The SDK's retries on every endpoint but the last are cut short, see OpenAIChatModelOptions.handOff.
 *
 * Each completion says who answered (`answeredBy`); every request a fallback answered is told to the observer.
 */
export function createFallbackModel(options: FallbackModelOptions): FallbackModel {
  const { endpoints, logger } = options;
  const primary = endpoints[0];
  if (!primary) throw new Error('a fallback chain needs at least one endpoint');
  const now = options.now ?? Date.now;
  const breakers = options.breakers ?? endpoints.map(() => createCircuitBreaker(options.cooldownMs, now));
  if (breakers.length !== endpoints.length) throw new Error('one circuit breaker per endpoint');

  /** Asks endpoint `index`; says whether the chain may move on when it fails. */
  async function attempt(
    index: number,
    request: CompletionRequest,
    shown: () => boolean,
  ): Promise<{ ok: true; completion: Completion } | { ok: false; error: unknown; moveOn: boolean }> {
    const endpoint = endpoints[index]!;
    const breaker = breakers[index]!;
    const wasOpen = breaker.state() !== 'closed';
    try {
      const completion = await endpoint.chat.complete(
        index === 0 ? request : { ...request, model: undefined },
      );
      breaker.succeeded();
      if (wasOpen) logger?.info({ endpoint: endpoint.name }, 'model endpoint available again');
      return { ok: true, completion };
    } catch (error) {
      const verdict = judge(error, request.signal, shown(), options.afterMs);
      if (verdict === 'unavailable') {
        breaker.failed();
        logger?.warn(
          { endpoint: endpoint.name, err: (error as Error).message, cooldownMs: options.cooldownMs },
          'model endpoint unavailable; skipped until its cooldown is over',
        );
      } else breaker.released();
      return { ok: false, error, moveOn: verdict !== 'final' };
    }
  }

  function answered(index: number, request: CompletionRequest, completion: Completion): Completion {
    const endpoint = endpoints[index]!;
    if (index === 0) {
      const model = request.model ?? endpoint.model;
      const name = request.model ? renamed(endpoint.name, endpoint.model, model) : endpoint.name;
      return { ...completion, answeredBy: { model, endpoint: name } };
    }
    const from = request.model ? renamed(primary!.name, primary!.model, request.model) : primary!.name;
    try {
      options.observer?.modelFallback?.(primary!.name, endpoint.name);
    } catch (err) {
      logger?.warn({ err }, 'a model fallback observer failed');
    }
    return { ...completion, answeredBy: { model: endpoint.model, endpoint: endpoint.name, insteadOf: from } };
  }

  return {
    async complete(request) {
      let passedOn = false;
      const watched: CompletionRequest = { ...request };
      if (request.onTextDelta) {
        const onText = request.onTextDelta;
        watched.onTextDelta = (text) => {
          passedOn ||= text.length > 0;
          onText(text);
        };
      }
      if (request.onReasoningDelta) {
        const onReasoning = request.onReasoningDelta;
        watched.onReasoningDelta = (text) => {
          passedOn ||= text.length > 0;
          onReasoning(text);
        };
      }
      const shown = () => passedOn;
      let first: unknown;
      let tried = 0;
      for (let index = 0; index < endpoints.length; index++) {
        if (!breakers[index]!.acquire()) continue;
        tried++;
        const outcome = await attempt(index, watched, shown);
        if (outcome.ok) return answered(index, request, outcome.completion);
        if (!outcome.moveOn) throw outcome.error;
        first ??= outcome.error;
      }
      if (tried === 0) {
        // Every circuit is open: rather than refuse without trying, the primary is asked anyway.
        const outcome = await attempt(0, watched, shown);
        if (outcome.ok) return answered(0, request, outcome.completion);
        if (!outcome.moveOn) throw outcome.error;
        first = outcome.error;
      }
      throw allUnavailable(first);
    },
    startingModel(model) {
      const index = breakers.findIndex((b) => b.available());
      return index > 0 ? endpoints[index]!.model : (model ?? primary.model);
    },
  };
}

/**
 * What a failure says of the endpoint: `unavailable` (move on, open its circuit), `busy` (a brief 429 the
 * SDK's retries did not outlast: move on, circuit stays closed), or `final` (no switch).
 */
function judge(
  error: unknown,
  signal: AbortSignal | undefined,
  shown: boolean,
  afterMs: number,
): 'unavailable' | 'busy' | 'final' {
  if (signal?.aborted || isAbortError(error) || shown) return 'final';
  if (!(error instanceof ModelError) || error.code !== 'model_unavailable') return 'final';
  if (error.status !== 429) return 'unavailable';
  const headers = (error.cause as { headers?: { get(name: string): string | null } } | undefined)?.headers;
  const wait = retryAfterMs(headers);
  return wait !== undefined && wait > afterMs ? 'unavailable' : 'busy';
}

/** The first endpoint's error, saying the others failed too (the details of each are in the log). */
function allUnavailable(error: unknown): unknown {
  if (!(error instanceof ModelError)) return error;
  return new ModelError(
    error.code as 'model_unavailable',
    `${error.message} The fallback models are unavailable too.`,
    error.status,
    error.cause ?? error,
  );
}

/** The primary's name with the model a channel picked in place of its configured one. */
function renamed(name: string, configured: string, model: string): string {
  return `${model}${name.slice(configured.length)}`;
}
