/**
 * The held-out set: real replies (tests/fixtures/react-outputs/holdout.json) collected after the corpus and never
 * used while fixing the parser. Its score is measured by the real parser; the floor only ever goes up.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseReactOutput } from '../../../src/core/agent/react-parser.js';
import { type CorpusEntry, percent, type Reading, scoreCorpus } from './react-corpus.js';

/** Share of the held-out set the parser read correctly when this floor was last raised (40/42 before the fixes for issue 32, 41/42 after). */
const FLOOR = 41 / 42;

const DIR = new URL('../../fixtures/react-outputs/', import.meta.url);

interface RawEntry {
  file: string;
  kind: string;
  origin: string;
  source: string;
  tools: string[];
  reading: Reading;
  note?: string;
}

function loadHoldout(): CorpusEntry[] {
  const raw = JSON.parse(readFileSync(new URL('holdout.json', DIR), 'utf8')) as RawEntry[];
  return raw.map((e) => ({
    ...e,
    expected: false,
    tools: e.tools.map((name) => ({ name })),
    text: readFileSync(new URL(`holdout/${e.file}`, DIR), 'utf8'),
  }));
}

const holdout = loadHoldout();

describe('parseReactOutput on the held-out replies', () => {
  it('holds at least 40 real replies, each with its public source', () => {
    expect(holdout.length).toBeGreaterThanOrEqual(40);
    for (const e of holdout) expect(e.source, e.file).toMatch(/^https:\/\/github\.com\//);
  });

  it('reads at least the recorded share of them', () => {
    const score = scoreCorpus(holdout, (e) => parseReactOutput(e.text, e.tools));
    const misread = score.misread.map(({ entry, outcome }) => `  ${entry.file}: ${JSON.stringify(outcome)}`);
    console.log(
      [`holdout: ${score.correct}/${score.total} (${percent(score.correct, score.total)})`, ...misread].join(
        '\n',
      ),
    );
    expect(score.correct / score.total).toBeGreaterThanOrEqual(FLOOR);
  });
});
