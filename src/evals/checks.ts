/**
 * The checks of a case, on what its run did: the answer's text, the tools it called, the steps it took. Each
 * failed check is one short reason.
 */
import { compileRegex } from './compile-regex.js';
import type { EvalChecks } from './eval-case.js';

/** What a run did, as far as the checks look. */
export interface RunRecord {
  status: 'answered' | 'failed' | 'cancelled' | 'busy' | 'refused' | 'limited';
  /** The answer, or the failure's message. */
  text: string;
  steps: number;
  /** The tools called, in order (a tool called twice appears twice). */
  calls: string[];
}

/** The numbers written in `text` (`2,480`, `-3.5`, `1e3` as 1 and 3 no; plain decimals only). */
export function numbersIn(text: string): number[] {
  return [...text.matchAll(/-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?/g)].map((m) =>
    Number(m[0].replaceAll(',', '')),
  );
}

const short = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}…` : s);

/** The reasons `run` fails `checks` (none: it passes), the judge aside. */
export function failedChecks(checks: EvalChecks, run: RunRecord): string[] {
  if (run.status !== 'answered') return [`no answer (${run.status}: ${short(run.text)})`];
  const answer = run.text;
  const lower = answer.toLowerCase();
  const reasons: string[] = [];
  for (const s of checks.contains ?? [])
    if (!lower.includes(s.toLowerCase())) reasons.push(`answer lacks "${short(s)}"`);
  for (const s of checks.notContains ?? [])
    if (lower.includes(s.toLowerCase())) reasons.push(`answer contains "${short(s)}"`);
  for (const r of checks.regex ?? [])
    if (!compileRegex(r).test(answer)) reasons.push(`answer does not match ${r}`);
  if (checks.number) {
    const { value, tolerance } = checks.number;
    if (!numbersIn(answer).some((n) => Math.abs(n - value) <= tolerance)) {
      reasons.push(`answer states no number within ${tolerance} of ${value}`);
    }
  }
  for (const t of checks.calls ?? []) if (!run.calls.includes(t)) reasons.push(`${t} was not called`);
  for (const t of checks.notCalls ?? []) if (run.calls.includes(t)) reasons.push(`${t} was called`);
  if (checks.maxSteps !== undefined && run.steps > checks.maxSteps) {
    reasons.push(`took ${run.steps} steps (at most ${checks.maxSteps})`);
  }
  return reasons;
}
