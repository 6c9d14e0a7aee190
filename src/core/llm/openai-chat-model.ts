import OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionContentPart,
  ChatCompletionCreateParamsBase,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { isAbortError, ModelError } from '../errors.js';
import { tracedChatModel } from '../tracing/traced-model.js';
import { pauseIfBusy } from '../util/pauser.js';
import { leanFetch, type ModelResponse } from './lean-fetch.js';
import { readJsonBody } from './read-json-body.js';
import { readSseJson } from './read-sse-json.js';
import { retryAfterMs } from './retry-after.js';
import { createThinkSplitter, loneClose, splitThinking } from './think-splitter.js';
import type {
  ChatMessage,
  ChatModel,
  Completion,
  CompletionRequest,
  ContentPart,
  TokenUsage,
  ToolCall,
  ToolSpec,
} from './types.js';

/**
 * Most of one reply that is read (content, reasoning and tool calls as sent): far past any answer a channel
 * keeps (ANSWER_MAX_CHARS), it bounds what a degenerate or hostile server can make the process hold.
 */
export const MAX_REPLY_CHARS = 8_000_000;

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

/** The SDK's options of one request, and what to do once its response starts. */
interface Call {
  options: { signal: AbortSignal } | undefined;
  responded(): void;
}

/** A request's time until its response starts, across the SDK's retries (see OpenAIChatModelOptions.handOff). */
interface Deadline {
  signal: AbortSignal;
  readonly expired: boolean;
  /** The response started: the rest is bounded by the idle limit, and by the run's own signal. */
  stop(): void;
  dispose(): void;
}

function startDeadline(parent: AbortSignal | undefined, ms: number): Deadline {
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
function longWaitsFinal(afterMs: number): typeof leanFetch {
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

async function streamed(
  client: OpenAI,
  params: ChatCompletionCreateParamsBase,
  request: CompletionRequest,
  idleMs: number,
  call: Call,
): Promise<Completion> {
  // The SDK sends the request (retries, timeout, errors by status); the body is read here, see readSseJson.
  const response = (await client.chat.completions
    .create({ ...params, stream: true, stream_options: { include_usage: true } }, call.options)
    .asResponse()) as unknown as ModelResponse;
  call.responded();
  let content = '';
  let reasoning = '';
  // Reasoning from the `reasoning_content` field and from `<think>` tags are kept as separate paragraphs.
  let source: 'field' | 'tags' | undefined;
  const addReasoning = (text: string, from: 'field' | 'tags') => {
    const piece = source && source !== from ? `\n\n${text}` : text;
    source = from;
    reasoning += piece;
    request.onReasoningDelta?.(piece);
  };
  const think = createThinkSplitter(
    (text) => {
      content += text;
      request.onTextDelta?.(text);
    },
    (text) => addReasoning(text, 'tags'),
  );
  let finishReason: string | null = null;
  let usage: ChatCompletionChunk['usage'];
  const calls: { id: string; name: string; arguments: string }[] = [];
  const onChunk = (data: unknown) => {
    const chunk = data as ChatCompletionChunk;
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (!choice) return;
    if (choice.finish_reason) finishReason = choice.finish_reason;
    const delta = choice.delta;
    if (!delta) return;
    const reasoningDelta = reasoningOf(delta);
    if (reasoningDelta) addReasoning(reasoningDelta, 'field');
    if (delta.content) think.push(delta.content);
    if (!delta.tool_calls) return;
    for (const part of delta.tool_calls) {
      let slot = calls[part.index];
      if (!slot) {
        slot = { id: '', name: '', arguments: '' };
        calls[part.index] = slot;
      }
      if (part.id) slot.id = part.id;
      if (part.function?.name) slot.name += part.function.name;
      if (part.function?.arguments) slot.arguments += part.function.arguments;
    }
  };
  // The SDK's timeout ends when the headers arrive; a stream that then stalls is caught by this idle limit.
  const read = await readSseJson(response.body, onChunk, idleMs, MAX_REPLY_CHARS);
  request.signal?.throwIfAborted();
  // A proxy's error page or a non-streaming server parses as zero events, not as an empty answer.
  if (read.events === 0) throw new ModelError('model_error', 'The model server sent a malformed response.');
  think.end();
  const split = loneClose(content, reasoning);
  // A reply cut at MAX_REPLY_CHARS ends as one at the model's length limit; its tool calls are incomplete.
  const toolCalls: ToolCall[] = read.cut
    ? []
    : calls
        .filter((c) => c?.name)
        .map((c, i) => ({ id: c.id || `call_${i}`, name: c.name, arguments: c.arguments }));
  return {
    content: split.reply,
    ...(split.reasoning ? { reasoning: split.reasoning } : {}),
    toolCalls,
    usage: toUsage(usage),
    finishReason: read.cut ? 'length' : finishReason,
  };
}

/**
 * The request's own signal, handed to the SDK as is: it adds one abort listener per request and never removes
 * it, which is why CompletionRequest.signal must live about as long as a run, not as long as the process.
 * With a deadline, the deadline's (a child of the request's, for this request only).
 */
function signalOf(
  request: CompletionRequest,
  deadline: Deadline | undefined,
): { signal: AbortSignal } | undefined {
  if (deadline) return { signal: deadline.signal };
  return request.signal ? { signal: request.signal } : undefined;
}

/** DeepSeek-style servers send reasoning as `reasoning_content`; vLLM and OpenRouter as `reasoning`. */
function reasoningOf(part: object): string {
  const fields = part as { reasoning_content?: unknown; reasoning?: unknown };
  const text = fields.reasoning_content ?? fields.reasoning;
  return typeof text === 'string' ? text : '';
}

function joinReasoning(...parts: string[]): string {
  return parts
    .map((p) => p.trim())
    .filter(Boolean)
    .join('\n\n');
}

// A run sends its growing list of messages, and the same tools, on every call: each is converted once.
const convertedMessages = new WeakMap<ChatMessage, ChatCompletionMessageParam>();
const convertedTools = new WeakMap<readonly ToolSpec[], ChatCompletionFunctionTool[]>();

function openAIMessage(message: ChatMessage): ChatCompletionMessageParam {
  let converted = convertedMessages.get(message);
  if (!converted) {
    converted = toOpenAIMessage(message);
    convertedMessages.set(message, converted);
  }
  return converted;
}

function openAITools(tools: readonly ToolSpec[]): ChatCompletionFunctionTool[] {
  let converted = convertedTools.get(tools);
  if (!converted) {
    converted = tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
    convertedTools.set(tools, converted);
  }
  return converted;
}

function toOpenAIMessage(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return typeof message.content === 'string'
        ? { role: 'user', content: message.content }
        : { role: 'user', content: message.content.map(toOpenAIPart) };
    case 'assistant':
      return message.toolCalls?.length
        ? {
            role: 'assistant',
            content: message.content,
            tool_calls: message.toolCalls.map((c) => ({
              id: c.id,
              type: 'function',
              function: { name: c.name, arguments: c.arguments },
            })),
          }
        : { role: 'assistant', content: message.content ?? '' };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}

/** Images go as data URLs, which every OpenAI-compatible vision server accepts. */
function toOpenAIPart(part: ContentPart): ChatCompletionContentPart {
  return part.type === 'text'
    ? { type: 'text', text: part.text }
    : { type: 'image_url', image_url: { url: `data:${part.mediaType};base64,${part.data}` } };
}

/** Usage as servers report it: OpenAI's `prompt_tokens_details.cached_tokens`, DeepSeek's `prompt_cache_hit_tokens`. */
interface ReportedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  prompt_cache_hit_tokens?: number | null;
}

function toUsage(usage: ReportedUsage | null | undefined): TokenUsage {
  const promptTokens = usage?.prompt_tokens ?? 0;
  const completionTokens = usage?.completion_tokens ?? 0;
  const cached = usage?.prompt_tokens_details?.cached_tokens ?? usage?.prompt_cache_hit_tokens;
  return {
    promptTokens,
    completionTokens,
    totalTokens: promptTokens + completionTokens,
    ...(typeof cached === 'number' && cached > 0 ? { cachedTokens: Math.min(cached, promptTokens) } : {}),
  };
}

/** Where requests go, as error messages name it: never credentials, never a query string. */
interface Endpoint {
  /** e.g. `http://localhost:11434/v1`, or `https://api.openai.com/v1` for the default. */
  base: string;
  /** `host:port`. */
  hostPort: string;
  /** The base URL's path does not end in `/v1`, the usual mount point of OpenAI-compatible servers. */
  missingV1: boolean;
  model: string;
  /** The setting that names the address (`OPENAI_BASE_URL`, `LLM_FALLBACK`). */
  setting: string;
}

function describeEndpoint(baseURL: string | undefined, model: string, setting = 'OPENAI_BASE_URL'): Endpoint {
  const url = new URL(baseURL ?? 'https://api.openai.com/v1');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const path = url.pathname.replace(/\/+$/, '');
  return {
    base: `${url.protocol}//${url.host}${path}`,
    hostPort: `${url.hostname}:${port}`,
    missingV1: baseURL !== undefined && !/\/v\d+$/.test(path),
    model,
    setting,
  };
}

/** The `code` of the innermost cause that has one (e.g. ECONNREFUSED under fetch's "fetch failed"). */
function causeCode(err: unknown): string | undefined {
  for (let cause = err, depth = 0; cause && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('E')) return code;
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Maps SDK errors to short ModelErrors whose messages are safe to show users (no keys, no bodies). */
function toModelError(err: unknown, endpoint: Endpoint): unknown {
  if (err instanceof ModelError || isAbortError(err)) return err;
  if (err instanceof OpenAI.APIUserAbortError) return err;
  if (err instanceof OpenAI.APIConnectionTimeoutError) {
    return new ModelError('model_unavailable', 'The model did not answer in time.', undefined, err);
  }
  if (err instanceof OpenAI.APIConnectionError) {
    const code = causeCode(err);
    // Refused or unknown host: a setting or a stopped server, which waiting will not fix.
    const message =
      code === 'ECONNREFUSED'
        ? `Nothing is listening at ${endpoint.base} (connection refused): start the model server there or correct ${endpoint.setting}.`
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? `The host of ${endpoint.base} could not be found: correct ${endpoint.setting}.`
          : `The model server at ${endpoint.base} could not be reached${code ? ` (${code})` : ''}.`;
    const lasting = code === 'ECONNREFUSED' || code === 'ENOTFOUND';
    return new ModelError('model_unavailable', message, undefined, err, !lasting);
  }
  if (err instanceof OpenAI.APIError) {
    const status = err.status;
    if (status === 401 || status === 403) {
      return new ModelError('model_error', 'The model server rejected the API key.', status, err);
    }
    if (status === 429) {
      return new ModelError('model_unavailable', 'The model is rate-limited right now.', status, err);
    }
    if (status !== undefined && status >= 500) {
      return new ModelError('model_unavailable', `The model server failed (HTTP ${status}).`, status, err);
    }
    if (status !== undefined && status >= 300 && status < 400) {
      // Redirects are not followed (see leanFetch); the location is not shown, it may carry a token.
      return new ModelError(
        'model_error',
        `${endpoint.base} answered with a redirect (HTTP ${status}): set ${endpoint.setting} to the address it redirects to.`,
        status,
        err,
      );
    }
    if (status === 404) {
      const modelMissing = err.code === 'model_not_found' || /model/i.test(err.message);
      const hint =
        endpoint.missingV1 && !modelMissing
          ? `${endpoint.base}/chat/completions answered 404: OpenAI-compatible servers usually serve under /v1, so ${endpoint.setting} may need to end in /v1.`
          : endpoint.setting === 'OPENAI_BASE_URL'
            ? `The model server answered 404: check LLM_MODEL ("${endpoint.model}") and OPENAI_BASE_URL (${endpoint.base}).`
            : `The model server answered 404: check the ${endpoint.setting} entry "${endpoint.model}@${endpoint.base}".`;
      return new ModelError('model_error', hint, status, err);
    }
    return new ModelError(
      'model_error',
      `The model rejected the request (HTTP ${status ?? '?'}).`,
      status,
      err,
    );
  }
  if (err instanceof SyntaxError) {
    return new ModelError('model_error', 'The model server sent a malformed response.', undefined, err);
  }
  // Past the headers, the SDK is done: a connection that breaks while the body is read surfaces as undici's
  // own error (UND_ERR_SOCKET "other side closed") or a system one (ECONNRESET).
  const code = (err as { code?: unknown } | null)?.code;
  const system = causeCode(err);
  if ((typeof code === 'string' && code.startsWith('UND_ERR')) || (system && !system.startsWith('ERR_'))) {
    return new ModelError(
      'model_unavailable',
      'The connection to the model broke before its answer was complete.',
      undefined,
      err,
    );
  }
  return err;
}
