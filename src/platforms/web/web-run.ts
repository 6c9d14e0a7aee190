import { OBSERVATION_CHARS, THOUGHT_CHARS } from '../shared/display-limits.js';
import { argumentsText } from '../shared/format-approvals.js';
import { cut, formatAction, formatObservation } from '../shared/format-step.js';
import {
  isEnded,
  outcomeText,
  type RunPhase,
  type RunView,
  type StepView,
  waitingForApproval,
} from '../shared/run-view.js';

/** One step as the page shows it: labelled Thought / Action / Observation, text already cut for display. */
export interface WebStep {
  /** `more` stands for the steps past the display limit. */
  kind: StepView['kind'] | 'more';
  text: string;
  /** False for an observation of a failed tool call. */
  ok: boolean;
}

/** One question and its run as the page shows it; the state a reconnecting page catches up from. */
export interface WebRun {
  id: string;
  question: string;
  /** The names of the files sent with the question. */
  files?: string[];
  phase: RunPhase;
  steps: WebStep[];
  /** The answer so far (markdown), or the final answer once `phase` is `final`. */
  answer: string;
  /** Under a final answer: why it is incomplete. */
  note?: string;
  /** Instead of an answer: why there is none (failed, cancelled, refused, limited). */
  problem?: string;
  /** Tool calls waiting for Approve or Deny while the run is live. */
  approvals?: WebApproval[];
}

/** A tool call waiting for a person, as the page shows it: its id, tool and exact arguments (pretty JSON). */
export interface WebApproval {
  id: string;
  tool: string;
  args: string;
  /** What the answer's placeholder says meanwhile. */
  waiting: string;
}

/** Longest arguments text sent to the page; the model's arguments are rarely near it. */
const APPROVAL_ARGS_CHARS = 20_000;

/** The calls of `view` waiting for a person, for the page. */
export function webApprovals(view: RunView): WebApproval[] {
  return (view.approvals ?? []).map((a) => ({
    id: a.id,
    tool: a.tool,
    args: cut(argumentsText(a.input), APPROVAL_ARGS_CHARS).text,
    waiting: waitingForApproval(a.tool),
  }));
}

/** A step of the run view, cut for display. */
export function webStep(step: StepView): WebStep {
  switch (step.kind) {
    case 'thought':
      return { kind: 'thought', text: cut(step.text, THOUGHT_CHARS).text, ok: true };
    case 'action':
      return { kind: 'action', text: formatAction(step.tool, step.input), ok: true };
    case 'observation':
      return { kind: 'observation', text: formatObservation(step.text, OBSERVATION_CHARS), ok: step.ok };
    case 'note':
      return { kind: 'note', text: step.text, ok: true };
  }
}

/** Brings `run` up to `view`'s ending: the answer with its note, or the problem instead. */
export function endRun(run: WebRun, view: RunView): void {
  if (!isEnded(view)) return;
  run.phase = view.phase;
  // Calls kept through a shutdown keep their buttons: a press after the restart goes on with the run.
  if (view.keptApprovals?.length) run.approvals = webApprovals({ ...view, approvals: view.keptApprovals });
  else delete run.approvals;
  const shown = outcomeText(view);
  if (shown.kind === 'answer') {
    run.answer = shown.text;
    if (shown.note) run.note = shown.note;
  } else {
    run.answer = '';
    run.problem = shown.text;
  }
}
