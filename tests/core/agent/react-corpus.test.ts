import { describe, expect, it } from 'vitest';
import { parseReactOutput } from '../../../src/core/agent/react-parser.js';
import { loadCorpus, percent, reads, scoreCorpus } from './react-corpus.js';

const corpus = loadCorpus();
const parse = (entry: (typeof corpus)[number]) => parseReactOutput(entry.text, entry.tools);

describe('parseReactOutput on the corpus of collected replies', () => {
  it('holds at least 40 replies from public sources, each with its source', () => {
    const real = corpus.filter((e) => e.origin !== 'synthetic');
    expect(real.length).toBeGreaterThanOrEqual(40);
    for (const e of corpus)
      expect(e.source, e.file).toMatch(e.origin === 'synthetic' ? /^synthetic$/ : /https:\/\//);
  });

  it('reads at least 95% as a careful person would', () => {
    const score = scoreCorpus(corpus, parse);
    const lines = Object.entries(score.byKind)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([kind, s]) =>
          `  ${kind.padEnd(16)} ${String(s.correct).padStart(3)}/${s.total}  ${percent(s.correct, s.total)}`,
      );
    const misread = score.misread.map(({ entry, outcome }) => `  ${entry.file}: ${JSON.stringify(outcome)}`);
    console.log(
      [
        `corpus: ${score.correct}/${score.total} (${percent(score.correct, score.total)})`,
        ...lines,
        ...misread,
      ].join('\n'),
    );
    expect(score.correct / score.total).toBeGreaterThanOrEqual(0.95);
  });

  it.each(corpus.filter((e) => e.expected).map((e) => [e.file, e] as const))(
    '%s is still read correctly',
    (_file, entry) => {
      expect(reads(parse(entry), entry.reading)).toBe(true);
    },
  );
});
