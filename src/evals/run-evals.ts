/**
 * Runs every case of some sets against one assistant, at most `concurrency` at a time, telling `progress` as
 * each finishes. Results come back in the sets' order, whatever order the cases finished in.
 */
import type { Assistant } from '../core/assistant.js';
import type { ChatModel } from '../core/llm/types.js';
import type { EvalSet } from './eval-case.js';
import { type CaseResult, runCase } from './run-case.js';

/** How many cases have finished, of how many, and how many of those failed. */
export interface Progress {
  done: number;
  total: number;
  failed: number;
}

/** Runs the cases of `sets`; `judges(model)` gives the model a case's judge names. */
export async function runEvals(
  assistant: Assistant,
  sets: readonly EvalSet[],
  options: { concurrency: number; judges: (model: string) => ChatModel; progress?: (p: Progress) => void },
): Promise<CaseResult[]> {
  const jobs = sets.flatMap((set) => set.cases.map((c) => ({ set: set.name, c })));
  const results: CaseResult[] = new Array(jobs.length);
  const progress: Progress = { done: 0, total: jobs.length, failed: 0 };
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < jobs.length; i = next++) {
      const { set, c } = jobs[i]!;
      const result = await runCase(assistant, set, c, options.judges);
      results[i] = result;
      progress.done++;
      if (!result.pass) progress.failed++;
      options.progress?.({ ...progress });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, jobs.length)) }, worker));
  return results;
}
