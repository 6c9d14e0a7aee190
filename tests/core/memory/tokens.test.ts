import { describe, expect, it } from 'vitest';
import {
  countTokens,
  MESSAGE_OVERHEAD_TOKENS,
  summaryTokens,
  truncateToTokens,
  turnTokens,
} from '../../../src/core/memory/tokens.js';

describe('token counting', () => {
  it('counts with a real tokenizer, not characters / 4', () => {
    // "Hello world" is 2 tokens in o200k; 11 characters would give 3 by the rule of thumb.
    expect(countTokens('Hello world')).toBe(2);
    const word = 'antidisestablishmentarianism';
    expect(countTokens(word)).not.toBe(Math.ceil(word.length / 4));
  });

  it('treats special-token text typed by a user as plain text', () => {
    expect(() => countTokens('see <|endoftext|> here')).not.toThrow();
    expect(countTokens('see <|endoftext|> here')).toBeGreaterThan(3);
  });

  it('counts a turn as the two messages the agent shows', () => {
    const turn = { author: 'alice', question: 'What is my project called?', answer: 'Atlas.' };
    expect(turnTokens(turn)).toBe(
      countTokens('[alice] What is my project called?') + countTokens('Atlas.') + 2 * MESSAGE_OVERHEAD_TOKENS,
    );
  });

  it('counts the summary with its heading', () => {
    expect(summaryTokens('Alice runs Atlas.')).toBe(
      countTokens('Summary of the earlier conversation:\nAlice runs Atlas.') + MESSAGE_OVERHEAD_TOKENS,
    );
  });

  it('truncates to a token budget', () => {
    const text = 'one two three four five six seven eight nine ten';
    expect(truncateToTokens(text, 100)).toBe(text);
    const cut = truncateToTokens(text, 4);
    expect(countTokens(cut)).toBeLessThanOrEqual(4);
    expect(text.startsWith(cut)).toBe(true);
  });
});
