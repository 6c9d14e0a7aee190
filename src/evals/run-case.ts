/**
 * One case through the assistant, as a platform asks it: its question with the thread context and files, in a
 * conversation of its own. Then the checks, and the judge when the case names one.
 */

import type { Assistant } from '../core/assistant.js';
import type { Attachment, ContextMessage } from '../core/input/types.js';
import type { ChatModel, TokenUsage } from '../core/llm/types.js';
import { failedChecks, type RunRecord } from './checks.js';
import type { EvalCase } from './eval-case.js';
import { judge } from './judge.js';

/** Tokens a case spent: the run's model calls and the judge's. */
export interface Spent {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
}

/** How one case went. */
export interface CaseResult {
  set: string;
  id: string;
  pass: boolean;
  /** Why it failed, one reason per failed check. */
  reasons: string[];
  /** Wall time of the run (the judge's not included). */
  ms: number;
  steps: number;
  calls: string[];
  spent: Spent;
  /** The answer (or the failure's message), cut to a few hundred characters. */
  answer: string;
}

/** The conversation key a case is asked under: the recorded tools find their case by it. */
export function caseKey(set: string, id: string): string {
  return `eval:${set}:${id}`;
}

function add(spent: Spent, usage: TokenUsage): void {
  spent.promptTokens += usage.promptTokens;
  spent.completionTokens += usage.completionTokens;
  spent.cachedTokens += usage.cachedTokens ?? 0;
}

const context = (c: EvalCase): ContextMessage[] =>
  (c.context ?? []).map((m, i, all) => ({
    author: m.author,
    text: m.text,
    at: new Date(Date.now() - (all.length - i) * 60_000),
  }));

const attachments = (c: EvalCase): Attachment[] =>
  (c.attachments ?? []).map((a) => ({
    name: a.name,
    mediaType: 'text/plain',
    size: Buffer.byteLength(a.text),
    kind: 'text',
    text: a.text,
  }));

/** Asks `c` of `assistant` and checks the answer; `judges(model)` gives the model a case's judge names. */
export async function runCase(
  assistant: Assistant,
  set: string,
  c: EvalCase,
  judges: (model: string) => ChatModel,
): Promise<CaseResult> {
  const spent: Spent = { promptTokens: 0, completionTokens: 0, cachedTokens: 0 };
  const calls: string[] = [];
  const started = performance.now();
  const outcome = await assistant.ask(
    {
      key: caseKey(set, c.id),
      author: 'eval',
      text: c.question,
      context: context(c),
      attachments: attachments(c),
    },
    (event) => {
      if (event.type === 'action') calls.push(event.tool);
      else if (event.type === 'usage') add(spent, event.usage);
    },
  );
  const ms = performance.now() - started;
  const run: RunRecord =
    outcome.status === 'answered'
      ? { status: 'answered', text: outcome.text, steps: outcome.steps, calls }
      : { status: outcome.status, text: 'message' in outcome ? outcome.message : '', steps: 0, calls };
  const reasons = failedChecks(c.checks, run);
  if (c.checks.judge && run.status === 'answered') {
    try {
      const verdict = await judge(judges(c.checks.judge.model), c.question, run.text, c.checks.judge.prompt);
      add(spent, verdict.usage);
      if (!verdict.pass) reasons.push(`judge ${c.checks.judge.model}: FAIL (${verdict.why})`);
    } catch (err) {
      reasons.push(`judge ${c.checks.judge.model} could not grade: ${(err as Error).message.slice(0, 120)}`);
    }
  }
  return {
    set,
    id: c.id,
    pass: reasons.length === 0,
    reasons,
    ms,
    steps: run.steps,
    calls,
    spent,
    answer: run.text.slice(0, 400),
  };
}
