import { createRequire } from 'node:module';
import { formatSummaryMessage, formatUserMessage } from '../agent/build-messages.js';
import { tokenPieces } from './token-pieces.js';
import type { Turn } from './types.js';

/** Tokens a chat message costs beyond its text (role and separators), as OpenAI documents for its models. */
export const MESSAGE_OVERHEAD_TOKENS = 4;

type Tokenizer = typeof import('gpt-tokenizer');
let tokenizer: Tokenizer | undefined;

/**
 * gpt-tokenizer, loaded on first use: its o200k tables take about 65 MB and 0.2 s to build, which a bot
 * that has just started (or only serves channels that never ask) need not pay. `require`, because the
 * counting functions are synchronous.
 */
function tokenize(): Tokenizer {
  tokenizer ??= createRequire(import.meta.url)('gpt-tokenizer') as Tokenizer;
  return tokenizer;
}

// Text like "<|endoftext|>" typed by a user is ordinary text here, not a special token (and must not throw).
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Tokens of `text` with the o200k tokenizer (GPT-4o family); other models differ a little, not a lot. Linear
 * in the length: very long runs without a space are counted in slices, which costs a few tokens more.
 */
export function countTokens(text: string): number {
  let total = 0;
  for (const piece of tokenPieces(text)) total += tokenize().countTokens(piece, PLAIN_TEXT);
  return total;
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
  let kept = 0;
  let used = 0;
  for (const piece of tokenPieces(text)) {
    const tokens = tokenize().encode(piece, PLAIN_TEXT);
    if (used + tokens.length > max)
      return text.slice(0, kept) + tokenize().decode(tokens.slice(0, max - used));
    used += tokens.length;
    kept += piece.length;
  }
  return text;
}
