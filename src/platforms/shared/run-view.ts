import type { AgentEvent, AnswerCut } from '../../core/agent/events.js';
import type { Approvers } from '../../core/approvals/approval-policy.js';
import type { AskOutcome } from '../../core/assistant.js';
import type { ErrorCode } from '../../core/errors.js';
import type { TokenUsage } from '../../core/llm/types.js';
import { readNote } from './read-note.js';
import { approvalNote, stoppedBy, WORDING } from './wording.js';

/** Where a run stands: waiting for the model, writing its answer, or ended one of three ways. */
export type RunPhase = 'thinking' | 'streaming' | 'final' | 'failed' | 'cancelled';

/** One reasoning step as the user sees it. */
export type StepView =
  | { kind: 'thought'; step: number; text: string }
  | { kind: 'action'; step: number; tool: string; input: unknown }
  | { kind: 'observation'; step: number; tool: string; text: string; ok: boolean }
  /** Something that happened to the run itself, e.g. who stopped it. */
  | { kind: 'note'; text: string };

/** A tool call waiting for a person's Approve or Deny. */
export interface PendingApproval {
  /** What the buttons carry. */
  id: string;
  /** The step whose action waits. */
  step: number;
  tool: string;
  /** The call's exact arguments, as the model gave them. */
  input: unknown;
  approvers: Approvers;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

/** Everything a renderer shows of one run; every platform renders this and nothing else. */
export interface RunView {
  phase: RunPhase;
  /** The steps so far, oldest first; the list only grows. */
  readonly steps: StepView[];
  /** The answer as streamed so far, or the final answer once `phase` is `final`. */
  answer: string;
  /** Why the run failed or was cancelled, in words for the asker. */
  error?: { code: ErrorCode; message: string };
  /** Tokens the model reported, once the run answered. */
  usage?: TokenUsage;
  /** Why the final answer is incomplete, when it is. */
  truncated?: AnswerCut | undefined;
  /** Notes for under the answer, e.g. that it could not be remembered. */
  notices?: string[];
  /** Who pressed Stop, when someone did: the run ended keeping what it had written. */
  stoppedBy?: string;
  /** Tool calls waiting for a person's decision now, oldest first. */
  approvals?: PendingApproval[];
  /**
   * Calls still waiting when the run was cancelled by a shutdown: kept for the next start, where a press on
   * them goes on with the run, so their buttons stay.
   */
  keptApprovals?: PendingApproval[];
}

/** The placeholder where the answer goes while nothing is written: thinking, or waiting for a person. */
export function placeholderText(view: RunView): string {
  const waiting = view.approvals?.[0];
  return waiting ? waitingForApproval(waiting.tool) : WORDING.thinking;
}

/** The answer's placeholder while a call of `tool` waits for approval. */
export function waitingForApproval(tool: string): string {
  return `Waiting for approval of ${tool}…`;
}

/** True once the run has ended and nothing more will change. */
export function isEnded(view: RunView): boolean {
  return view.phase === 'final' || view.phase === 'failed' || view.phase === 'cancelled';
}

const THOUGHT_LABEL = /^\s*(?:\*\*|__)?thought(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*/i;

/** A fresh view, before the model has said anything. */
export function createRunView(): RunView {
  return { phase: 'thinking', steps: [], answer: '' };
}

/**
 * Applies one core event to the view, in place (a run emits thousands of deltas; copying would cost more
 * than the rendering). Returns false for events that changed nothing visible.
 */
export function applyEvent(view: RunView, event: AgentEvent): boolean {
  // A notice may follow the answer (the turn could not be stored); nothing else changes an ended view.
  if (isEnded(view) && event.type !== 'notice') return false;
  switch (event.type) {
    case 'thought':
      // Models often start a thought with its own label; the renderers add theirs.
      view.steps.push({ kind: 'thought', step: event.step, text: event.text.replace(THOUGHT_LABEL, '') });
      return true;
    case 'action':
      view.steps.push({ kind: 'action', step: event.step, tool: event.tool, input: event.input });
      return true;
    case 'observation':
      view.steps.push({
        kind: 'observation',
        step: event.step,
        tool: event.tool,
        text: event.text,
        ok: event.ok,
      });
      return true;
    case 'answer_delta':
      if (!event.text) return false;
      view.answer += event.text;
      view.phase = 'streaming';
      return true;
    case 'answer_reset':
      view.answer = '';
      view.phase = 'thinking';
      return true;
    case 'usage':
      return false;
    case 'read':
      view.steps.push({ kind: 'note', text: readNote(event.sources) });
      return true;
    case 'approval':
      view.approvals = [
        ...(view.approvals ?? []),
        {
          id: event.id,
          step: event.step,
          tool: event.tool,
          input: event.input,
          approvers: event.approvers,
          expiresAt: event.expiresAt,
        },
      ];
      return true;
    case 'approval_decided':
      view.approvals = (view.approvals ?? []).filter((a) => a.id !== event.id);
      if (event.outcome !== 'stopped') {
        view.steps.push({
          kind: 'note',
          text: approvalNote(event.tool, event.outcome, event.by, event.reason),
        });
      }
      return true;
    case 'notice':
      view.notices = [...(view.notices ?? []), event.message];
      return true;
    case 'answer':
      view.answer = event.text;
      view.usage = event.usage;
      view.truncated = event.truncated;
      view.phase = 'final';
      view.approvals = undefined;
      return true;
    case 'error':
      view.phase = event.code === 'cancelled' ? 'cancelled' : 'failed';
      // Stop decides a waiting call (stopped) before the run ends; only a shutdown leaves one undecided.
      if (event.code === 'cancelled' && view.approvals?.length) view.keptApprovals = view.approvals;
      view.approvals = undefined;
      view.error = { code: event.code, message: event.message };
      return true;
  }
}

/** Ends a view the events left open (the run threw, or ended without a closing event), from its outcome. */
export function endFromOutcome(view: RunView, outcome: AskOutcome | undefined): void {
  if (isEnded(view)) return;
  switch (outcome?.status) {
    case 'answered':
      applyEvent(view, {
        type: 'answer',
        text: outcome.text,
        usage: outcome.usage,
        steps: outcome.steps,
        ...(outcome.truncated ? { truncated: outcome.truncated } : {}),
      });
      return;
    case 'cancelled':
      applyEvent(view, { type: 'error', code: 'cancelled', message: WORDING.cancelled });
      return;
    case 'busy':
    case 'refused':
    case 'limited':
      applyEvent(view, { type: 'error', code: outcome.status, message: outcome.message });
      return;
    case 'failed':
      applyEvent(view, { type: 'error', code: outcome.code, message: outcome.message });
      return;
    default:
      applyEvent(view, { type: 'error', code: 'internal', message: WORDING.failed });
  }
}

/** What an ended run shows where its answer goes. */
export type Outcome =
  /** The answer (never blank), and a note to show under it when it is incomplete. */
  | { kind: 'answer'; text: string; note?: string }
  /** Why there is no answer. */
  | { kind: 'problem'; text: string };

/** Ends a run someone stopped: what was written stays, the steps say who stopped it. */
export function markStopped(view: RunView, by: string): void {
  view.phase = 'cancelled';
  view.error = { code: 'cancelled', message: WORDING.cancelled };
  view.stoppedBy = by;
  view.steps.push({ kind: 'note', text: stoppedBy(by) });
}

/** What an ended run shows where its answer goes: the answer, or the reason it has none. */
export function outcomeText(view: RunView): Outcome {
  if (view.stoppedBy !== undefined) {
    const written = view.answer.trimEnd();
    return { kind: 'answer', text: written.trim() ? `${written}\n\n${WORDING.stopped}` : WORDING.stopped };
  }
  if (view.phase !== 'final') return { kind: 'problem', text: view.error?.message ?? WORDING.failed };
  const text = view.answer.trim() ? view.answer : WORDING.emptyAnswer;
  const cut =
    view.truncated === 'length'
      ? [WORDING.lengthCut]
      : view.truncated === 'max_chars'
        ? [WORDING.maxCharsCut]
        : [];
  const notes = [...cut, ...(view.notices ?? [])];
  return notes.length > 0 ? { kind: 'answer', text, note: notes.join(' ') } : { kind: 'answer', text };
}
