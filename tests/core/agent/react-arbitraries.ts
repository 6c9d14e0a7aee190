/**
 * fast-check generators for the text protocol: labels dressed the ways models dress them, tool names, inputs.
 * Shared by the parser's property tests.
 */
import fc from 'fast-check';

/** The tools every generated reply may name. */
export const TOOLS = ['web_search', 'calculator', 'get_weather', 'send_sms', 'run_python'] as const;

/** One of the tools. */
export const tool = fc.constantFrom(...TOOLS);

/** A word or short phrase of plain text (no colons, brackets or newlines). */
export const phrase = fc
  .array(
    fc.constantFrom('rust', 'paris', 'weather', 'release', '1.80', 'tomorrow', 'price', 'of', 'in', 'the'),
    {
      minLength: 1,
      maxLength: 5,
    },
  )
  .map((w) => w.join(' '));

/** A flat JSON object of short string values, as a tool input. */
export const jsonInput = fc.dictionary(fc.stringMatching(/^[a-z][a-z_]{0,8}$/), phrase, {
  minKeys: 1,
  maxKeys: 3,
});

/** How a label is dressed: case, emphasis, list marker or heading, step number, colon. */
export interface Dress {
  upper: boolean;
  bold: 'none' | 'word' | 'with-colon';
  prefix: '' | '- ' | '* ' | '1. ' | '### ';
  number: boolean;
  colon: ':' | '：';
  space: boolean;
}

export const dress: fc.Arbitrary<Dress> = fc.record({
  upper: fc.boolean(),
  bold: fc.constantFrom('none', 'word', 'with-colon'),
  prefix: fc.constantFrom('', '- ', '* ', '1. ', '### '),
  number: fc.boolean(),
  colon: fc.constantFrom(':', '：'),
  space: fc.boolean(),
});

/** `word` as a line-leading label dressed by `d` (`**Action 2:**`, `- ACTION INPUT：`, `### Final Answer:`). */
export function label(word: string, d: Dress): string {
  const w = `${d.upper ? word.toUpperCase() : word}${d.number ? ' 2' : ''}`;
  const colon = `${d.space ? ' ' : ''}${d.colon}`;
  const core =
    d.bold === 'word' ? `**${w}**${colon}` : d.bold === 'with-colon' ? `**${w}${colon}**` : `${w}${colon}`;
  return `${d.prefix}${core}`;
}

/** Opening phrases before a first-person intention ("To do this, I will…"). */
export const opener = fc.constantFrom(
  '',
  'To do this, ',
  'Next, ',
  'Then ',
  'After that, ',
  'First, ',
  'Now ',
);

/** First-person intentions to act. */
export const intention = fc
  .tuple(
    opener,
    fc.constantFrom('I will', "I'll", 'I am going to', 'I need to', 'let me', 'we will'),
    fc.constantFrom('extract', 'calculate', 'compare', 'fetch', 'look up', 'check', 'proceed by computing'),
    fc.constantFrom('the numbers', 'the ratio of both values', 'the latest release notes', 'the two results'),
  )
  .map(([o, subject, verb, object]) => {
    const s = `${o}${subject} ${verb} ${object}.`;
    return s[0]!.toUpperCase() + s.slice(1);
  });

/** Sentences stating facts, as an answer has. */
export const fact = fc.constantFrom(
  'Paris has about 2.1 million inhabitants.',
  'The release came out in July.',
  'Both cities lie on a river.',
  'The forecast says rain in the afternoon.',
);
