import { createRequire } from 'node:module';
import { formatHistoryMessage, formatSummaryMessage } from '../agent/build-messages.js';
import { type Bpe, loadO200k } from './compact-bpe.js';
import { tokenPieces } from './token-pieces.js';
import type { Turn } from './types.js';

/** Tokens a chat message costs beyond its text (role and separators), as OpenAI documents for its models. */
export const MESSAGE_OVERHEAD_TOKENS = 4;

let tokenizer: Bpe | undefined;

/**
 * The o200k tokenizer, built on first use (about 0.15 s): a bot that has just started need not hold it. If
 * gpt-tokenizer's rank file ever changes shape, gpt-tokenizer's own encoder (69 MB) counts instead.
 */
function tokenize(): Bpe {
  tokenizer ??= compactOrFallback();
  return tokenizer;
}

function compactOrFallback(): Bpe {
  try {
    return loadO200k();
  } catch {
    const gpt = createRequire(import.meta.url)('gpt-tokenizer') as typeof import('gpt-tokenizer');
    // Text like "<|endoftext|>" typed by a user is ordinary text here, not a special token (and must not throw).
    const plain = { disallowedSpecial: new Set<string>() };
    return {
      encode: (text) => gpt.encode(text, plain),
      count: (text) => gpt.countTokens(text, plain),
      decode: (tokens) => gpt.decode(tokens),
    };
  }
}

/**
 * Tokens of `text` with the o200k tokenizer (GPT-4o family); other models differ a little, not a lot. Linear
 * in the length: very long runs without a space are counted in slices, which costs a few tokens more.
 */
export function countTokens(text: string): number {
  let total = 0;
  for (const piece of tokenPieces(text)) total += tokenize().count(piece);
  return total;
}

/** Tokens a stored turn costs in a prompt: the quoted question plus the answer message. */
export function turnTokens(turn: Turn): number {
  return (
    countTokens(formatHistoryMessage(turn.author, turn.question)) +
    countTokens(turn.answer) +
    2 * MESSAGE_OVERHEAD_TOKENS
  );
}

/** Tokens the running summary costs in a prompt, shown as its own (quoted) message. */
export function summaryTokens(summary: string): number {
  return countTokens(formatSummaryMessage(summary)) + MESSAGE_OVERHEAD_TOKENS;
}

/** `text` cut to at most `max` tokens (a last resort: it drops whatever comes after). */
export function truncateToTokens(text: string, max: number): string {
  let kept = 0;
  let used = 0;
  for (const piece of tokenPieces(text)) {
    const tokens = tokenize().encode(piece);
    if (used + tokens.length > max)
      return text.slice(0, kept) + tokenize().decode(tokens.slice(0, max - used));
    used += tokens.length;
    kept += piece.length;
  }
  return text;
}
