import { decode, encode, countTokens as encodeAndCount } from 'gpt-tokenizer';
import { formatSummaryMessage, formatUserMessage } from '../agent/build-messages.js';
import type { Turn } from './types.js';

/** Tokens a chat message costs beyond its text (role and separators), as OpenAI documents for its models. */
export const MESSAGE_OVERHEAD_TOKENS = 4;

// Text like "<|endoftext|>" typed by a user is ordinary text here, not a special token (and must not throw).
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Tokens of `text` with the o200k tokenizer (GPT-4o family); other models differ a little, not a lot. */
export function countTokens(text: string): number {
  return encodeAndCount(text, PLAIN_TEXT);
}

/** Tokens a stored turn costs in a prompt: the user message `[author] question` plus the answer message. */
export function turnTokens(turn: Turn): number {
  return (
    countTokens(formatUserMessage(turn.author, turn.question)) +
    countTokens(turn.answer) +
    2 * MESSAGE_OVERHEAD_TOKENS
  );
}

/** Tokens the running summary costs in a prompt, shown as its own system message. */
export function summaryTokens(summary: string): number {
  return countTokens(formatSummaryMessage(summary)) + MESSAGE_OVERHEAD_TOKENS;
}

/** `text` cut to at most `max` tokens (a last resort: it drops whatever comes after). */
export function truncateToTokens(text: string, max: number): string {
  const tokens = encode(text, PLAIN_TEXT);
  return tokens.length <= max ? text : decode(tokens.slice(0, max));
}
