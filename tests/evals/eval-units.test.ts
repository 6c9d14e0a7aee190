/** The pieces of `npm run eval`: case files, checks, replayed observations, percentiles and run changes. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { failedChecks, numbersIn, type RunRecord } from '../../src/evals/checks.js';
import { EvalSetError, parseEvalSet } from '../../src/evals/eval-case.js';
import { changesSince, dataDirOf, type EvalRunRecord } from '../../src/evals/eval-history.js';
import { percentile } from '../../src/evals/eval-report.js';
import { recordedFor } from '../../src/evals/recorded-tools.js';

const answered = (text: string, over: Partial<RunRecord> = {}): RunRecord => ({
  status: 'answered',
  text,
  steps: 2,
  calls: [],
  ...over,
});

describe('eval case files', () => {
  it('reads the starter set', () => {
    const set = parseEvalSet('starter', readFileSync('evals/starter.jsonl', 'utf8'));
    expect(set.cases.length).toBeGreaterThanOrEqual(10);
    const tools = new Set(set.cases.flatMap((c) => (c.recorded ?? []).map((r) => r.tool)));
    for (const t of [
      'calculator',
      'current_time',
      'weather',
      'wikipedia',
      'web_search',
      'read_file',
      'recall',
      'remember',
    ])
      expect(tools).toContain(t);
  });

  it.each([
    ['not JSON', '{"id": "a",', /x\.jsonl:2: not JSON/],
    [
      'an unknown check',
      '{"id":"a","question":"q","checks":{"contain":["x"]}}',
      /x\.jsonl:2: checks: Unrecognized key/,
    ],
    [
      'a bad regex',
      '{"id":"a","question":"q","checks":{"regex":["(unclosed"]}}',
      /checks\.regex\.0: not a valid regular expression/,
    ],
    [
      'an id used twice',
      '{"id":"a","question":"q","checks":{}}\n{"id":"a","question":"r","checks":{}}',
      /x\.jsonl:3: id "a" is used twice/,
    ],
  ])('names the line of %s', (_name, line, message) => {
    expect(() => parseEvalSet('x', `// a comment\n${line}`)).toThrow(EvalSetError);
    expect(() => parseEvalSet('x', `// a comment\n${line}`)).toThrow(message);
  });
});

describe('checks', () => {
  it('pass when every check holds', () => {
    const checks = {
      contains: ['paris'],
      regex: ['/\\bcapital\\b/i'],
      number: { value: 2.1, tolerance: 0.05 },
      calls: ['web_search'],
      notCalls: ['calculator'],
      maxSteps: 3,
    };
    expect(
      failedChecks(
        checks,
        answered('The capital, Paris, has 2.12 million people.', { calls: ['web_search'] }),
      ),
    ).toEqual([]);
  });

  it('give one reason per failed check', () => {
    const checks = {
      contains: ['Tokyo'],
      number: { value: 310, tolerance: 0 },
      calls: ['calculator'],
      maxSteps: 1,
    };
    expect(failedChecks(checks, answered('About 300.', { steps: 2 }))).toEqual([
      'answer lacks "Tokyo"',
      'answer states no number within 0 of 310',
      'calculator was not called',
      'took 2 steps (at most 1)',
    ]);
  });

  it('fail a run that did not answer, saying how it ended', () => {
    expect(failedChecks({}, { status: 'failed', text: 'step limit', steps: 0, calls: [] })).toEqual([
      'no answer (failed: step limit)',
    ]);
  });

  it('read numbers with thousands separators and signs', () => {
    expect(numbersIn('It was 2,480.5 then -3 and 1,000,000.')).toEqual([2480.5, -3, 1_000_000]);
  });
});

describe('replayed observations', () => {
  const recorded = [
    { tool: 'calculator', input: { expression: '2+2' }, output: '4' },
    { tool: 'calculator', output: 'any' },
  ];
  it('prefer the one recorded for this exact input, then one for any input', () => {
    expect(recordedFor(recorded, 'calculator', { expression: '2+2' })?.output).toBe('4');
    expect(recordedFor(recorded, 'calculator', { expression: '3+3' })?.output).toBe('any');
    expect(recordedFor(recorded, 'weather', { city: 'x' })).toBeUndefined();
  });
});

describe('figures and changes', () => {
  it('takes nearest-rank percentiles', () => {
    const ms = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
    expect([percentile(ms, 50), percentile(ms, 95), percentile([], 50)]).toEqual([50, 100, 0]);
  });

  it('names new failures, fixes and new cases', () => {
    const run = (cases: [string, boolean][]): EvalRunRecord =>
      ({ cases: cases.map(([id, pass]) => ({ set: 's', id, pass })) }) as EvalRunRecord;
    const before = run([
      ['a', true],
      ['b', false],
      ['c', true],
    ]);
    const after = run([
      ['a', false],
      ['b', true],
      ['c', true],
      ['d', false],
    ]);
    expect(changesSince(before, after)).toEqual({ newFailures: ['s/a'], fixed: ['s/b'], added: ['s/d'] });
  });

  it('keeps runs beside the SQLite database, or in ./data', () => {
    expect(dataDirOf('sqlite:/var/lib/bot/thinkthread.db')).toBe('/var/lib/bot');
    expect(dataDirOf('postgres://u:p@db/x', '/srv')).toBe('/srv/data');
    expect(dataDirOf('sqlite::memory:', '/srv')).toBe('/srv/data');
  });
});
