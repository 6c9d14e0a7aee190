/**
 * Issue 43: unlabelled prose that narrates its next steps, or stops mid-sentence in any language, is not an
 * answer; prose that answers, courteous offers included, still is. Properties over generated replies.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { announcesStep, parseReactOutput } from '../../../src/core/agent/react-parser.js';
import { fact, intention, TOOLS } from './react-arbitraries.js';

const parse = (text: string, afterResults = false) => parseReactOutput(text, [...TOOLS], { afterResults });

describe('prose that narrates what the model will do next', () => {
  it('is a plan when it narrates at length (two sentences of intention), results or not', () => {
    fc.assert(
      fc.property(
        fc.array(fact, { maxLength: 2 }),
        intention,
        intention,
        fc.boolean(),
        (facts, a, b, after) => {
          const text = [...facts, a, b].join(' ');
          expect(parse(text, after).kind).toBe('invalid');
          expect(announcesStep(text, { afterResults: after })).toBe(true);
        },
      ),
    );
  });

  it('is a plan when it ends on one after tool results came in', () => {
    fc.assert(
      fc.property(fc.array(fact, { minLength: 1, maxLength: 3 }), intention, (facts, plan) => {
        const text = [...facts, plan].join(' ');
        expect(parse(text, true).kind).toBe('invalid');
      }),
    );
  });

  it('is the answer when it states facts and at most closes with a courteous offer', () => {
    const offer = fc.constantFrom(
      '',
      'Let me know if you need more.',
      'I will be happy to help with anything else.',
      'I hope this helps!',
    );
    fc.assert(
      fc.property(
        fc.array(fact, { minLength: 1, maxLength: 3 }),
        offer,
        fc.boolean(),
        (facts, close, after) => {
          const text = [...facts, close].filter(Boolean).join(' ');
          expect(parse(text, after)).toMatchObject({ kind: 'final', answer: text });
          expect(announcesStep(text, { afterResults: after })).toBe(false);
        },
      ),
    );
  });
});

/** Complete replies and the words a cut can stop on, per language. */
const SENTENCES: readonly [string, readonly string[]][] = [
  [
    'The population of Paris is about 2.1 million, while Lyon has about half a million.',
    ['while', 'has', 'about'],
  ],
  ['Die Bevölkerung von Paris ist größer als die von Lyon und Marseille.', ['von', 'als', 'und']],
  ['La population de Paris est plus grande que celle de Lyon et de Marseille.', ['de', 'que', 'et']],
];

describe('a reply cut mid-sentence', () => {
  it('is no answer when it stops on a word no sentence ends with, in any of these languages', () => {
    const cut = fc
      .constantFrom(...SENTENCES)
      .chain(([sentence, stops]) =>
        fc.constantFrom(...stops).map((w) => sentence.slice(0, sentence.indexOf(` ${w} `) + w.length + 1)),
      );
    fc.assert(
      fc.property(fc.array(fact, { maxLength: 2 }), cut, (facts, text) => {
        const reply = [...facts, text].join(' ');
        expect(parse(reply).kind).toBe('invalid');
        expect(announcesStep(reply)).toBe(true);
      }),
    );
  });

  it('is no answer when its last sentence began a further clause and never ended (Chinese, Japanese)', () => {
    for (const text of [
      '巴黎的人口大约是两百一十万，而里昂的人口',
      'パリの人口は約二百十万人で、リヨンの人口は',
    ]) {
      expect(parse(text).kind).toBe('invalid');
      expect(announcesStep(text)).toBe(true);
    }
  });

  it('is no answer when the reply ends its other sentences but not its last', () => {
    expect(parse('The first source is outdated. The second one supports the claim').kind).toBe('invalid');
  });

  it('is the answer once it ends, in any script', () => {
    const complete = fc.constantFrom(
      ...SENTENCES.map(([s]) => s),
      '巴黎的人口大约是两百一十万，里昂的人口大约是五十万。',
      'The total is 42',
      'Files:\n- a.txt\n- notes from the meeting',
    );
    fc.assert(
      fc.property(complete, (text) => {
        expect(parse(text)).toMatchObject({ kind: 'final', answer: text });
      }),
    );
  });

  it('is not cut when it is one unpunctuated sentence or a bare value: reminded, yet the answer at the last step', () => {
    for (const text of ['Paris has about 2.1 million inhabitants', 'Oslo', 'lorem ipsum dolor']) {
      expect(parse(text).kind).toBe('invalid');
      expect(announcesStep(text)).toBe(false);
    }
  });
});
