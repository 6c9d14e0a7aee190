/**
 * An eval run in figures (pass rate, tokens, cost, p50/p95 latency) and in words for the terminal: the failed
 * cases with their reasons, then what changed since the last comparable run.
 */
import { costOf, type Prices } from '../cli/usage-report.js';
import type { EvalRunRecord, RunChanges } from './eval-history.js';
import type { CaseResult } from './run-case.js';

/** The `p`th percentile (0–100) of `values`, nearest-rank; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** What was run, besides the results. */
export interface RunSettings {
  sets: string[];
  model: string;
  protocol: 'react' | 'tools';
  recorded: boolean;
  prices?: Prices | undefined;
}

/** The record of a finished run, ready to keep. */
export function summarize(
  results: readonly CaseResult[],
  settings: RunSettings,
  at = Date.now(),
): EvalRunRecord {
  const sum = (f: (r: CaseResult) => number) => results.reduce((n, r) => n + f(r), 0);
  const tokens = {
    promptTokens: sum((r) => r.spent.promptTokens),
    completionTokens: sum((r) => r.spent.completionTokens),
  };
  const ms = results.map((r) => r.ms);
  return {
    at,
    sets: settings.sets,
    model: settings.model,
    protocol: settings.protocol,
    recorded: settings.recorded,
    passed: results.filter((r) => r.pass).length,
    total: results.length,
    ...tokens,
    cachedTokens: sum((r) => r.spent.cachedTokens),
    costUsd: settings.prices ? costOf(tokens, settings.prices) : undefined,
    p50Ms: Math.round(percentile(ms, 50)),
    p95Ms: Math.round(percentile(ms, 95)),
    cases: results.map(({ set, id, pass, reasons, ms: caseMs, steps, calls, answer }) => ({
      set,
      id,
      pass,
      reasons,
      ms: Math.round(caseMs),
      steps,
      calls,
      answer,
    })),
  };
}

const count = (n: number) => n.toLocaleString('en');
const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

/** The pass rate as a fraction (1 for an empty run). */
export function passRate(run: Pick<EvalRunRecord, 'passed' | 'total'>): number {
  return run.total === 0 ? 1 : run.passed / run.total;
}

/** The report's lines: failures, the figures, then the changes since `before` (when there was one). */
export function reportLines(
  run: EvalRunRecord,
  before?: { run: EvalRunRecord; changes: RunChanges },
): string[] {
  const lines: string[] = [];
  for (const c of run.cases.filter((x) => !x.pass)) lines.push(`✗ ${c.set}/${c.id}: ${c.reasons.join('; ')}`);
  if (lines.length > 0) lines.push('');
  const rate = `${(100 * passRate(run)).toFixed(1)}%`;
  const cost =
    run.costUsd === undefined
      ? 'cost unknown (set LLM_PRICE_INPUT_PER_MTOK and LLM_PRICE_OUTPUT_PER_MTOK)'
      : `cost about $${run.costUsd.toFixed(4)}`;
  lines.push(
    `${run.model} (${run.protocol}${run.recorded ? ', recorded tools' : ''}), sets ${run.sets.join(', ')}`,
    `passed ${run.passed}/${run.total} (${rate})`,
    `tokens ${count(run.promptTokens + run.completionTokens)} (prompt ${count(run.promptTokens)}, of which cached ${count(run.cachedTokens)}; completion ${count(run.completionTokens)}), ${cost}`,
    `latency p50 ${seconds(run.p50Ms)}, p95 ${seconds(run.p95Ms)}`,
  );
  if (!before) lines.push('no earlier run of this model, protocol and mode to compare with');
  else {
    const { changes } = before;
    const was = `${before.run.passed}/${before.run.total}`;
    lines.push(
      `since the last run (${new Date(before.run.at).toISOString().slice(0, 16).replace('T', ' ')} UTC, ${was}):`,
    );
    lines.push(`  new failures: ${changes.newFailures.join(', ') || 'none'}`);
    if (changes.fixed.length > 0) lines.push(`  fixed: ${changes.fixed.join(', ')}`);
    if (changes.added.length > 0) lines.push(`  new cases: ${changes.added.join(', ')}`);
  }
  return lines;
}
