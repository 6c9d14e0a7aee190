import type { TokenUsage } from './types.js';

/**
 * Most of one reply that is read (content, reasoning and tool calls as sent): far past any answer a channel
 * keeps (ANSWER_MAX_CHARS), it bounds what a degenerate or hostile server can make the process hold.
 */
export const MAX_REPLY_CHARS = 8_000_000;

/** DeepSeek-style servers send reasoning as `reasoning_content`; vLLM and OpenRouter as `reasoning`. */
export function reasoningOf(part: object): string {
  const fields = part as { reasoning_content?: unknown; reasoning?: unknown };
  const text = fields.reasoning_content ?? fields.reasoning;
  return typeof text === 'string' ? text : '';
}

/** Reasoning from several places (the field, `<think>` tags) as paragraphs of one text. */
export function joinReasoning(...parts: string[]): string {
  return parts
    .map((p) => p.trim())
    .filter(Boolean)
    .join('\n\n');
}

/** Usage as servers report it: OpenAI's `prompt_tokens_details.cached_tokens`, DeepSeek's `prompt_cache_hit_tokens`. */
interface ReportedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  prompt_cache_hit_tokens?: number | null;
}

/** Token usage as a server reported it, cached prompt tokens included where it says. */
export function toUsage(usage: ReportedUsage | null | undefined): TokenUsage {
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
