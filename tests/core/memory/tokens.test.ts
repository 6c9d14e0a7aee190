import { readFileSync } from 'node:fs';
import { countTokens as wholeTextCount } from 'gpt-tokenizer';
import { describe, expect, it, vi } from 'vitest';
import { PIECE_CHARS, RUN_CHARS, tokenPieces } from '../../../src/core/memory/token-pieces.js';
import {
  countTokens,
  MESSAGE_OVERHEAD_TOKENS,
  summaryTokens,
  truncateToTokens,
  turnTokens,
} from '../../../src/core/memory/tokens.js';
import { quote } from '../../../src/core/util/untrusted.js';

// The longest text and the longest run without whitespace the tokenizer is handed, since the last reset.
const { handed } = vi.hoisted(() => ({ handed: { text: 0, run: 0 } }));
vi.mock(import('gpt-tokenizer'), async (original) => {
  const mod = await original();
  const seen = (text: string) => {
    handed.text = Math.max(handed.text, text.length);
    for (const run of text.split(/\s+/)) handed.run = Math.max(handed.run, run.length);
  };
  return {
    ...mod,
    countTokens: ((input, options) => {
      if (typeof input === 'string') seen(input);
      return mod.countTokens(input, options);
    }) as typeof mod.countTokens,
    encode: ((text, options) => {
      seen(text);
      return mod.encode(text, options);
    }) as typeof mod.encode,
  };
});

const PLAIN = { disallowedSpecial: new Set<string>() };

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
      countTokens(quote('history', 'What is my project called?', { author: 'alice' })) +
        countTokens('Atlas.') +
        2 * MESSAGE_OVERHEAD_TOKENS,
    );
  });

  it('counts the summary with its heading', () => {
    expect(summaryTokens('Alice runs Atlas.')).toBe(
      countTokens(`Summary of the earlier conversation:\n${quote('history', 'Alice runs Atlas.')}`) +
        MESSAGE_OVERHEAD_TOKENS,
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

describe('token counting on hostile text', () => {
  const degenerate = {
    'one letter': 'a'.repeat(200_000),
    'two letters': 'ab'.repeat(100_000),
    spaces: ' '.repeat(100_000),
    punctuation: '!?'.repeat(100_000),
    emoji: '😀'.repeat(50_000),
    'a long URL among words': `see https://example.com/${'x'.repeat(50_000)} and more words here`,
  };

  it.each(Object.entries(degenerate))('hands the tokenizer only short runs and pieces: %s', (_name, text) => {
    handed.text = 0;
    handed.run = 0;
    expect(countTokens(text)).toBeGreaterThan(0);
    expect(truncateToTokens(text, 1000).length).toBeGreaterThan(0);
    expect(handed.run).toBeLessThanOrEqual(RUN_CHARS);
    expect(handed.text).toBeLessThanOrEqual(PIECE_CHARS + 2 * RUN_CHARS);
  });

  it('cuts text into pieces that join back to exactly the text, never inside a surrogate pair', () => {
    for (const text of [...Object.values(degenerate), 'a😀'.repeat(40_000), 'word '.repeat(50_000)]) {
      const pieces = [...tokenPieces(text)];
      expect(pieces.join('')).toBe(text);
      for (const piece of pieces) expect(piece).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
    }
  });

  it('counts ordinary text as the tokenizer does on the whole text', () => {
    const prose = readFileSync('README.md', 'utf8');
    const code = readFileSync('src/core/agent/create-agent.ts', 'utf8');
    for (const text of [prose, code, prose.repeat(3)]) {
      const exact = wholeTextCount(text, PLAIN);
      expect(Math.abs(countTokens(text) - exact)).toBeLessThanOrEqual(Math.ceil(exact * 0.005));
    }
    const sentence = 'The quick brown fox jumps over the lazy dog, again and again. ';
    expect(countTokens(sentence.repeat(500))).toBe(wholeTextCount(sentence.repeat(500), PLAIN));
  });

  it('keeps a degenerate run’s count close to the tokenizer’s', () => {
    const text = 'a'.repeat(5_000);
    expect(countTokens(text)).toBe(wholeTextCount(text, PLAIN));
  });

  it('truncates a megabyte to a token budget from its start', () => {
    const text = `intro ${'z'.repeat(1_000_000)}`;
    const cut = truncateToTokens(text, 50);
    expect(text.startsWith(cut)).toBe(true);
    expect(countTokens(cut)).toBeLessThanOrEqual(50);
    expect(countTokens(cut)).toBeGreaterThan(40);
  });
});
