import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenize } from '../../../src/platforms/web/public/highlight.js';

describe('the code highlighter', () => {
  it('splits code into pieces that join back to it exactly, whatever the text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 200 }),
        fc.constantFrom('', 'js', 'python', 'sql'),
        (text, lang) => {
          expect(
            tokenize(text, lang)
              .map((p) => p.text)
              .join(''),
          ).toBe(text);
        },
      ),
    );
  });

  it('marks keywords, strings, numbers and the comments of each language', () => {
    const kinds = (text: string, lang: string) =>
      tokenize(text, lang)
        .filter((p) => p.kind !== 'plain')
        .map((p) => `${p.kind}:${p.text}`);
    expect(kinds('const x = "a<b>"; // note', 'js')).toEqual([
      'keyword:const',
      'string:"a<b>"',
      'comment:// note',
    ]);
    expect(kinds('def f(): return 42  # answer', 'python')).toEqual([
      'keyword:def',
      'keyword:return',
      'number:42',
      'comment:# answer',
    ]);
    expect(kinds('SELECT 1 -- one', 'sql')).toEqual(['keyword:SELECT', 'number:1', 'comment:-- one']);
  });
});
