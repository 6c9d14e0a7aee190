import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PASSAGE_MAX_CHARS, toPassages } from '../../src/documents/passages.js';

const filler = (words: number) => Array.from({ length: words }, (_, i) => `word${i % 97}`).join(' ');

describe('passages', () => {
  it('keeps a sentence whole when a long paragraph is cut, with its heading', () => {
    const fact = 'Requests for project KX1002 must be approved by the finance lead within 114 hours.';
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 400 }), fc.integer({ min: 0, max: 300 }), (before, after) => {
        const text = `${filler(before)}. ${fact} ${filler(after)}.`;
        const passages = toPassages([{ heading: 'Approvals', text }]);
        expect(passages.some((p) => p.text.includes(fact))).toBe(true);
        expect(passages.every((p) => p.text.length <= PASSAGE_MAX_CHARS && p.heading === 'Approvals')).toBe(
          true,
        );
        expect(
          passages
            .map((p) => p.text)
            .join(' ')
            .replace(/\s+/g, ' '),
        ).toBe(text);
      }),
    );
  });

  it('cuts Chinese text after its full stops, and a sentence longer than a passage by words', () => {
    const zh = '值班交换需要经理提前两天批准。'.repeat(120);
    const passages = toPassages([{ text: zh }]);
    expect(passages.length).toBeGreaterThan(1);
    expect(passages.every((p) => p.text.endsWith('。') && p.text.length <= PASSAGE_MAX_CHARS)).toBe(true);
    expect(passages.map((p) => p.text).join('')).toBe(zh);
    const long = toPassages([{ text: filler(600) }]);
    expect(long.every((p) => p.text.length <= PASSAGE_MAX_CHARS)).toBe(true);
    expect(long.map((p) => p.text).join(' ')).toBe(filler(600));
  });
});
