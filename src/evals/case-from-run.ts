/**
 * A case made from a kept run (the admin page's "Add to evals"): its question, the tool observations it got
 * (recorded, so the case replays with `--recorded`), and the checks the admin wrote in.
 */
import type { RunDetail } from '../core/ports/run-log-store.js';
import type { EvalCase, EvalChecks, RecordedObservation } from './eval-case.js';

/** The observations the run's tools returned, each with the input it was called with (JSON when it reads as JSON). */
export function recordedOf(run: RunDetail): RecordedObservation[] {
  const steps = run.log?.steps ?? [];
  const inputs = new Map<string, string>();
  const recorded: RecordedObservation[] = [];
  for (const step of steps) {
    if (step.kind === 'action') inputs.set(step.callId, step.input);
    else if (step.kind === 'observation') {
      const raw = inputs.get(step.callId);
      let input: unknown;
      try {
        input = raw === undefined ? undefined : JSON.parse(raw);
      } catch {
        input = raw;
      }
      recorded.push({ tool: step.tool, ...(input === undefined ? {} : { input }), output: step.text });
    }
  }
  return recorded;
}

/** The case for `run` with `checks`, under `id` (`run-<id>` when unset); undefined when its question is not kept. */
export function caseFromRun(
  run: RunDetail,
  checks: EvalChecks,
  options: { id?: string | undefined; source?: string | undefined } = {},
): EvalCase | undefined {
  const question = run.log?.question;
  if (!question) return undefined;
  const recorded = recordedOf(run);
  return {
    id: options.id ?? `run-${run.id}`,
    question,
    ...(recorded.length > 0 ? { recorded } : {}),
    checks,
    source: options.source ?? `run ${run.id} (${run.platform}, ${new Date(run.at).toISOString()})`,
  };
}
