import { encode as reference } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { loadO200k } from '../../../src/core/memory/compact-bpe.js';

const PLAIN = { disallowedSpecial: new Set<string>() };
const bpe = loadO200k();

/** A seeded generator, so a failure names text that can be tried again. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const SAMPLES = [
  'Hello, world! How are you doing today?',
  "It's the user's turn; they'll say we've done it, I'd think.",
  '    indented code();\n\tif (x) { return y; }\r\n',
  '価格は1,234円です。漢字とカタカナ、ひらがな。',
  '你好，世界！这是一个测试。',
  'Ünïcödé naïve café — “quotes” … ½ ∑ ≠ ∞',
  '🙂👍🏽👨‍👩‍👧 emoji and ZWJ sequences',
  'Numbers 1234567890 3.14159 -42 1e10 0xFF',
  'Special-looking text: <|endoftext|> <|im_start|>user',
  'URL https://example.com/a/b?c=d&e=f#g and mail a.b@c.de',
  '\u0000\u0001 control \u007f chars and a lone \ud800 surrogate',
  'x'.repeat(300),
  `${' '.repeat(50)}\n\n\n${'\t'.repeat(5)}`,
  'Mixed: Привет мир, مرحبا بالعالم, שלום עולם, नमस्ते दुनिया',
  JSON.stringify({ tool: 'calculator', arguments: { expression: '123 * 456 + 789' } }),
];

describe('the compact o200k tokenizer', () => {
  it('encodes exactly as gpt-tokenizer does, on varied text', () => {
    for (const text of SAMPLES) expect(bpe.encode(text), text.slice(0, 30)).toEqual(reference(text, PLAIN));
  });

  it('encodes exactly as gpt-tokenizer does, on thousands of random strings from many scripts', () => {
    const next = random(200);
    const alphabet = [
      ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
      ...' \n\t.,;:!?\'"()[]{}<>/\\|-_=+*&^%$#@~`',
      ...'éüñçßøåæœ',
      ...'漢字日本語中文한국어',
      ...'абвгдежзиклмнопрстуфхцчшщыэюя',
      '🙂',
      '👍🏽',
      '\u200d',
    ];
    for (let i = 0; i < 3000; i++) {
      const length = 1 + Math.floor(next() * 60);
      let text = '';
      for (let j = 0; j < length; j++) text += alphabet[Math.floor(next() * alphabet.length)];
      expect(bpe.encode(text), JSON.stringify(text)).toEqual(reference(text, PLAIN));
    }
  });

  it('decodes what it encodes', () => {
    for (const text of SAMPLES.filter((t) => !t.includes('\ud800'))) {
      expect(bpe.decode(bpe.encode(text))).toBe(text);
    }
  });
});
