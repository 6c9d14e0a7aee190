import type { Logger } from '../logger.js';
import { createCircuitBreaker } from './circuit-breaker.js';
import { endpointName } from './endpoint-name.js';
import { createFallbackModel, type ModelEndpoint, type ModelFallbackObserver } from './fallback-model.js';
import { createOpenAIChatModel, type OpenAIChatModelOptions } from './openai-chat-model.js';
import type { ChatModel } from './types.js';

/** LLM_FALLBACK and its settings. */
export interface FallbackSettings {
  /** The entries in order, each with its key from LLM_FALLBACK_KEYS and whether it takes `prompt_cache_key`. */
  endpoints: readonly {
    model: string;
    baseURL: string;
    apiKey?: string | undefined;
    promptCacheKey?: boolean | undefined;
  }[];
  /** LLM_FALLBACK_AFTER_MS. */
  afterMs: number;
  /** LLM_FALLBACK_COOLDOWN_MS. */
  cooldownMs: number;
}

/** The agent's and the summariser's models over the same endpoints. */
export interface ModelChains {
  agent: ChatModel;
  /** SUMMARY_MODEL (or LLM_MODEL) on the primary endpoint, fetched whole; fallbacks ask for their own models. */
  summary: ChatModel;
  /** The model a run asking for `model` would start on: a fallback's while the primary's circuit is open. */
  startingModel(model: string): string;
}

/**
 * The clients of the agent and of the summariser: one each on the primary, or, with fallbacks, two chains
 * over the same endpoints, sharing each endpoint's circuit breaker (an endpoint down is down for both). Every
 * endpoint has the primary's settings (timeout, retries, temperature) with its own base URL, model and key.
 * See createFallbackModel for when a chain moves on.
 */
export function createModelChains(
  primary: OpenAIChatModelOptions,
  summaryModel: string,
  fallback: FallbackSettings | undefined,
  deps: { observer?: ModelFallbackObserver | undefined; logger?: Logger | undefined; now?: () => number },
): ModelChains {
  // Summaries are read by no one as they stream, so they are fetched whole.
  const summary = { ...primary, model: summaryModel, stream: false };
  if (!fallback || fallback.endpoints.length === 0) {
    return {
      agent: createOpenAIChatModel(primary),
      summary: createOpenAIChatModel(summary),
      startingModel: (model) => model,
    };
  }
  const last = fallback.endpoints.length;
  const handOff = { afterMs: fallback.afterMs };
  const fallbacks = (stream: boolean): ModelEndpoint[] =>
    fallback.endpoints.map((entry, i) => ({
      name: endpointName(entry.model, entry.baseURL),
      model: entry.model,
      chat: createOpenAIChatModel({
        ...primary,
        stream,
        apiKey: entry.apiKey,
        baseURL: entry.baseURL,
        model: entry.model,
        promptCacheKey: entry.promptCacheKey,
        handOff: i + 1 < last ? handOff : undefined,
        setting: 'LLM_FALLBACK',
      }),
    }));
  const now = deps.now ?? Date.now;
  const breakers = [primary, ...fallback.endpoints].map(() => createCircuitBreaker(fallback.cooldownMs, now));
  const chain = (first: OpenAIChatModelOptions) =>
    createFallbackModel({
      endpoints: [
        {
          name: endpointName(first.model, first.baseURL),
          model: first.model,
          chat: createOpenAIChatModel({ ...first, handOff }),
        },
        ...fallbacks(first.stream),
      ],
      afterMs: fallback.afterMs,
      cooldownMs: fallback.cooldownMs,
      breakers,
      observer: deps.observer,
      logger: deps.logger,
    });
  const agent = chain(primary);
  return { agent, summary: chain(summary), startingModel: (model) => agent.startingModel(model) };
}
