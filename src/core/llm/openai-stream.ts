import type OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions';
import { ModelError } from '../errors.js';
import type { ModelResponse } from './lean-fetch.js';
import { MAX_REPLY_CHARS, reasoningOf, toUsage } from './openai-reply.js';
import type { Call } from './openai-request.js';
import { readSseJson } from './read-sse-json.js';
import { createThinkSplitter, loneClose } from './think-splitter.js';
import type { Completion, CompletionRequest, ToolCall } from './types.js';

/**
 * One streamed completion: the SDK sends the request, the server-sent events are read here, answer and
 * reasoning deltas told as they come (`<think>` tags split out), tool calls assembled from their pieces.
 */
export async function streamed(
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
