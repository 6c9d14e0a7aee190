/**
 * The corpus of model replies in tests/fixtures/react-outputs/corpus.json, each with the reading a careful person
 * would make, and the score of a parser on it. Shared by the parser test and the react-parser benchmark.
 */
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';

/** What the agent should do with a reply; `input` is left out where it is not judged. */
export type Reading =
  | { kind: 'action'; tool: string; input?: Record<string, unknown> | string }
  | { kind: 'final'; answer: string }
  | { kind: 'invalid' };

/** What a parser made of a reply, in the same terms. */
export type Outcome =
  | { kind: 'action'; tool: string; input: unknown }
  | { kind: 'final'; answer: string }
  | { kind: 'invalid' };

/** A tool as the corpus lists it: its name and, where the case depends on it, its JSON schema. */
export interface CorpusTool {
  name: string;
  parameters?: Record<string, unknown>;
}

/** One collected reply. */
export interface CorpusEntry {
  file: string;
  kind: string;
  /** issue / paper / test (a fixture in another project's tests) / synthetic. */
  origin: string;
  source: string;
  tools: CorpusTool[];
  reading: Reading;
  /** Read correctly before: it must stay so. */
  expected: boolean;
  /** Held-out replies: the round of collection (1: issue 32's, 2 to 8: issue 43's), never used to fix the parser. */
  round?: number;
  note?: string;
  text: string;
}

const DIR = new URL('../../fixtures/react-outputs/', import.meta.url);

interface RawEntry extends Omit<CorpusEntry, 'tools' | 'text' | 'expected'> {
  tools: string[] | Record<string, Record<string, unknown>>;
  expected?: boolean;
}

/** Every entry of the corpus with its text. */
export function loadCorpus(): CorpusEntry[] {
  const raw = JSON.parse(readFileSync(new URL('corpus.json', DIR), 'utf8')) as RawEntry[];
  return raw.map((e) => ({
    ...e,
    expected: e.expected === true,
    tools: Array.isArray(e.tools)
      ? e.tools.map((name) => ({ name }))
      : Object.entries(e.tools).map(([name, parameters]) => ({ name, parameters })),
    text: readFileSync(new URL(`corpus/${e.file}`, DIR), 'utf8'),
  }));
}

/** The held-out replies (holdout.json), collected after the corpus, each round from sources not used before. */
export function loadHoldout(): CorpusEntry[] {
  const raw = JSON.parse(readFileSync(new URL('holdout.json', DIR), 'utf8')) as (RawEntry & {
    tools: string[];
  })[];
  return raw.map((e) => ({
    ...e,
    expected: false,
    round: e.round ?? 1,
    tools: e.tools.map((name) => ({ name })),
    text: readFileSync(new URL(`holdout/${e.file}`, DIR), 'utf8'),
  }));
}

/** Whether `outcome` is the careful reading. */
export function reads(outcome: Outcome, reading: Reading): boolean {
  if (outcome.kind !== reading.kind) return false;
  if (outcome.kind === 'final' && reading.kind === 'final')
    return outcome.answer.trim() === reading.answer.trim();
  if (outcome.kind === 'action' && reading.kind === 'action') {
    if (outcome.tool !== reading.tool) return false;
    if (reading.input === undefined) return true;
    const got = typeof outcome.input === 'string' ? outcome.input.trim() : outcome.input;
    const want = typeof reading.input === 'string' ? reading.input.trim() : reading.input;
    return isDeepStrictEqual(got, want);
  }
  return true;
}

/** Correct readings out of the total, overall and by kind, and the entries read wrongly. */
export interface CorpusScore {
  correct: number;
  total: number;
  byKind: Record<string, { correct: number; total: number }>;
  misread: { entry: CorpusEntry; outcome: Outcome }[];
}

/** Scores a parser on the corpus. */
export function scoreCorpus(
  entries: readonly CorpusEntry[],
  parse: (entry: CorpusEntry) => Outcome,
): CorpusScore {
  const score: CorpusScore = { correct: 0, total: 0, byKind: {}, misread: [] };
  for (const entry of entries) {
    const outcome = parse(entry);
    const ok = reads(outcome, entry.reading);
    score.byKind[entry.kind] ??= { correct: 0, total: 0 };
    const kind = score.byKind[entry.kind]!;
    kind.total++;
    score.total++;
    if (ok) {
      kind.correct++;
      score.correct++;
    } else score.misread.push({ entry, outcome });
  }
  return score;
}

/** A percentage with one decimal. */
export function percent(correct: number, total: number): string {
  return `${((100 * correct) / Math.max(total, 1)).toFixed(1)}%`;
}
