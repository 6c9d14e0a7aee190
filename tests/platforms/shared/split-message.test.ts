import { describe, expect, it } from 'vitest';
import { splitMessage } from '../../../src/platforms/shared/split-message.js';

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

describe('splitMessage', () => {
  it('leaves a short message whole', () => {
    expect(splitMessage('hello world', 2000)).toEqual(['hello world']);
  });

  it('keeps every part within the limit and loses no word', () => {
    const text = words(1500);
    const parts = splitMessage(text, 2000);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(2000);
    expect(parts.join(' ').split(/\s+/)).toEqual(text.split(' '));
  });

  it('prefers paragraph breaks, then line breaks', () => {
    const para = `${'a'.repeat(900)}\n\n${'b'.repeat(900)}\n\n${'c'.repeat(900)}`;
    expect(splitMessage(para, 2000)).toEqual([`${'a'.repeat(900)}\n\n${'b'.repeat(900)}`, 'c'.repeat(900)]);
    const lines = `${'x'.repeat(1200)}\n${'y'.repeat(1200)}`;
    expect(splitMessage(lines, 2000)).toEqual(['x'.repeat(1200), 'y'.repeat(1200)]);
  });

  it('never cuts inside a word when spaces exist', () => {
    const text = `${'word '.repeat(399)}tail-end-word`;
    for (const part of splitMessage(text, 100)) {
      expect(part).toMatch(/^(word ?)*(tail-end-word)?$/);
    }
  });

  it('closes a code block at the cut and reopens it with its language', () => {
    const code = Array.from({ length: 200 }, (_, i) => `const v${i} = ${i};`).join('\n');
    const text = `Here is code:\n\n\`\`\`ts\n${code}\n\`\`\`\n\nDone.`;
    const parts = splitMessage(text, 2000);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(2000);
      expect((part.match(/^```/gm) ?? []).length % 2).toBe(0);
    }
    expect(parts[1]!.startsWith('```ts\n')).toBe(true);
    const rejoined = parts.join('\n').replace(/\n```\n```ts\n/g, '\n');
    for (let i = 0; i < 200; i++) expect(rejoined).toContain(`const v${i} = ${i};`);
    expect(parts.at(-1)).toContain('Done.');
  });

  it('closes a ~~~ block with ~~~ and reopens it in the next part', () => {
    const code = Array.from({ length: 200 }, (_, i) => `x${i} = ${i}`).join('\n');
    const parts = splitMessage(`~~~py\n${code}\n~~~\nafter`, 1000);
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts.slice(0, -1)) expect(part.endsWith('\n~~~')).toBe(true);
    for (const part of parts.slice(1)) expect(part.startsWith('~~~py\n')).toBe(true);
    expect(parts.join('\n')).not.toContain('```');
  });

  it('does not treat a ``` line inside a ~~~ block as its end', () => {
    const code = Array.from({ length: 150 }, (_, i) => (i === 5 ? '```' : `line ${i}`)).join('\n');
    const parts = splitMessage(`~~~\n${code}\n~~~`, 500);
    for (const part of parts.slice(1)) expect(part.startsWith('~~~\n')).toBe(true);
  });

  it('hard-cuts a single word longer than the limit, without splitting a surrogate pair', () => {
    const text = '😀'.repeat(1500);
    const parts = splitMessage(text, 2000);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(2000);
      expect(part).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
    }
    expect(parts.join('')).toBe(text);
  });
});
