import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions';
import { ModelError } from '../errors.js';
import { tracedChatModel } from '../tracing/traced-model.js';
import { pauseIfBusy } from '../util/pauser.js';
import { leanFetch, type ModelResponse } from './lean-fetch.js';
import { describeEndpoint, toModelError } from './openai-errors.js';
import { openAIMessage, openAITools } from './openai-messages.js';
import { joinReasoning, MAX_REPLY_CHARS, reasoningOf, toUsage } from './openai-reply.js';
import { type Call, longWaitsFinal, signalOf, startDeadline } from './openai-request.js';
import { streamed } from './openai-stream.js';
import { readJsonBody } from './read-json-body.js';
import { splitThinking } from './think-splitter.js';
import type { ChatModel, Completion, CompletionRequest } from './types.js';

/** Settings of the OpenAI-compatible client. */
export interface OpenAIChatModelOptions {
  apiKey?: string | undefined;
  baseURL?: string | undefined;
  model: string;
  temperature?: number | undefined;
  /** Retries of 429/5xx/connection errors; the SDK backs off and honours `retry-after`. */
  maxRetries: number;
  timeoutMs: number;
  stream: boolean;
  /** Sends each request's `cacheKey` as `prompt_cache_key` (servers that reject unknown fields must not get it). */
  promptCacheKey?: boolean | undefined;
  /**
   * Set when another endpoint follows this one (LLM_FALLBACK), which serves better than waiting here: a 429
   * asking to wait longer than `afterMs` (`retry-after`, `retry-after-ms`) is not retried, and a request gets
   * `timeoutMs` in all until its response starts, retries and their back-off included, so a hanging endpoint
   * costs one LLM_TIMEOUT_MS rather than one per retry. Within that time, 5xx, failed connections and shorter
   * 429s are still retried (`maxRetries`), which rides out a blip without moving to the fallback.
   */
  handOff?: { afterMs: number } | undefined;
  /** The setting that names this endpoint's address, for error messages; `OPENAI_BASE_URL` when unset. */
  setting?: string | undefined;
}

/** A ChatModel over any OpenAI-compatible Chat Completions endpoint (OpenAI, Ollama, vLLM, DeepSeek, Qwen…). */
export function createOpenAIChatModel(options: OpenAIChatModelOptions): ChatModel {
  const endpoint = describeEndpoint(options.baseURL, options.model, options.setting);
  const handOff = options.handOff;
  const client = new OpenAI({
    // Local servers (Ollama, vLLM) accept any key; the SDK insists on one.
    apiKey: options.apiKey ?? 'not-needed',
    baseURL: options.baseURL ?? null,
    maxRetries: options.maxRetries,
    timeout: options.timeoutMs,
    fetch: handOff ? longWaitsFinal(handOff.afterMs) : leanFetch,
  });

  const model: ChatModel = {
    async complete(request: CompletionRequest): Promise<Completion> {
      // Many runs at once: each request waits its turn rather than all being built in one block.
      const paused = pauseIfBusy();
      if (paused) await paused;
      const params: ChatCompletionCreateParamsBase = {
        model: request.model ?? options.model,
        messages: request.messages.map(openAIMessage),
      };
      if (options.temperature !== undefined) params.temperature = options.temperature;
      if (request.tools?.length) {
        params.tools = openAITools(request.tools);
        if (request.toolChoice) params.tool_choice = request.toolChoice;
      }
      if (request.stop?.length) params.stop = [...request.stop];
      if (request.maxTokens) params.max_tokens = request.maxTokens;
      if (options.promptCacheKey && request.cacheKey) params.prompt_cache_key = request.cacheKey;
      const deadline = handOff ? startDeadline(request.signal, options.timeoutMs) : undefined;
      const call: Call = { options: signalOf(request, deadline), responded: () => deadline?.stop() };
      try {
        if (options.stream) return await streamed(client, params, request, options.timeoutMs, call);
        // The SDK sends the request; the JSON is read here (the SDK's parsing adds request-id and log details
        // no caller uses). A body that is not JSON is a SyntaxError: "malformed response".
        const raw = (await client.chat.completions
          .create({ ...params, stream: false }, call.options)
          .asResponse()) as unknown as ModelResponse;
        call.responded();
        const response = (await readJsonBody(raw.body, MAX_REPLY_CHARS)) as Partial<ChatCompletion> | null;
        const choice = response?.choices?.[0];
        if (!choice?.message) throw new ModelError('model_error', 'The model returned no choices.');
        const split = splitThinking(choice.message.content ?? '');
        const reasoning = joinReasoning(reasoningOf(choice.message), split.reasoning);
        if (reasoning) request.onReasoningDelta?.(reasoning);
        const content = split.reply;
        if (content) request.onTextDelta?.(content);
        return {
          content,
          ...(reasoning ? { reasoning } : {}),
          toolCalls: (choice.message.tool_calls ?? []).flatMap((c) =>
            c.type === 'function' && c.function
              ? [{ id: c.id, name: c.function.name, arguments: c.function.arguments }]
              : [],
          ),
          usage: toUsage(response?.usage),
          finishReason: choice.finish_reason ?? null,
        };
      } catch (err) {
        if (deadline?.expired && !request.signal?.aborted) {
          throw new ModelError('model_unavailable', 'The model did not answer in time.', undefined, err);
        }
        throw toModelError(err, endpoint);
      } finally {
        deadline?.dispose();
      }
    },
  };
  return tracedChatModel(
    model,
    options.model,
    options.baseURL ? new URL(options.baseURL).hostname : undefined,
  );
}
