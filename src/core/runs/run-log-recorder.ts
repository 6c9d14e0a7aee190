import type { AgentEvent, AgentEventHandler } from '../agent/events.js';
import type { RunLog, RunLogStart, RunStep } from '../ports/run-log-store.js';

/** Longest thought, tool input or observation a run log keeps (the rest is cut with a marker). */
export const MAX_LOGGED_CHARS = 4000;
/** Longest question or answer a run log keeps. */
export const MAX_LOGGED_TEXT_CHARS = 20_000;

/** Writes down a run's steps as its events pass by, with their times. */
export interface RunLogRecorder {
  /** Passes every event on to the original handler, noting it on the way. */
  onEvent: AgentEventHandler;
  /** The run's log so far (call once the run has ended). */
  log(): RunLog;
}

/** How a recorded run began, when not as a question just asked; and steps kept from before. */
export interface RecordedFrom {
  /** A `scheduled` or `resumed` notice, first of the run's new steps. */
  notice?: { code: 'scheduled' | 'resumed'; text: string } | undefined;
  /** The steps logged before (a run resumed after a restart goes on from its log). */
  earlier?: readonly RunStep[] | undefined;
  /** When the run began, if before now (step times count from it). */
  began?: number | undefined;
}

/** Creates a recorder in front of `onEvent`; `now` is the clock of the step times. */
export function createRunLogRecorder(
  onEvent: AgentEventHandler,
  start: RunLogStart,
  now: () => number = Date.now,
  from: RecordedFrom = {},
): RunLogRecorder {
  const began = from.began ?? now();
  const steps: RunStep[] = [...(from.earlier ?? [])];
  if (from.notice) steps.push({ kind: 'notice', at: now() - began, ...from.notice });
  const actions = new Map<string, number>();
  const asked = new Map<string, number>();
  let answer: string | null = null;
  // A model call starts when the run does, or when the previous call or the last tool result came back.
  let lastBoundary = 0;
  const note = (event: AgentEvent) => {
    const at = now() - began;
    switch (event.type) {
      case 'thought':
        steps.push({ kind: 'thought', at, step: event.step, text: cut(event.text) });
        break;
      case 'usage':
        steps.push({
          kind: 'model',
          at,
          step: event.step,
          ms: at - lastBoundary,
          promptTokens: event.usage.promptTokens,
          completionTokens: event.usage.completionTokens,
          cachedTokens: event.usage.cachedTokens ?? 0,
        });
        lastBoundary = at;
        break;
      case 'action':
        actions.set(event.callId, at);
        steps.push({
          kind: 'action',
          at,
          step: event.step,
          callId: event.callId,
          tool: event.tool,
          input: cut(typeof event.input === 'string' ? event.input : (JSON.stringify(event.input) ?? '')),
        });
        break;
      case 'observation':
        steps.push({
          kind: 'observation',
          at,
          step: event.step,
          callId: event.callId,
          tool: event.tool,
          text: cut(event.text),
          ok: event.ok,
          ms: at - (actions.get(event.callId) ?? at),
        });
        lastBoundary = at;
        break;
      case 'approval':
        asked.set(event.id, at);
        break;
      case 'approval_decided':
        steps.push({
          kind: 'approval',
          at,
          callId: event.callId,
          tool: event.tool,
          outcome: event.outcome,
          by: event.by,
          reason: event.reason && cut(event.reason),
          waitedMs: event.waitedMs ?? at - (asked.get(event.id) ?? at),
        });
        break;
      case 'answer':
        answer = cut(event.text, MAX_LOGGED_TEXT_CHARS);
        steps.push({ kind: 'answer', at, text: answer, truncated: event.truncated });
        break;
      case 'notice':
      case 'error':
        steps.push({ kind: event.type, at, code: event.code, text: cut(event.message) });
        break;
      case 'answer_delta':
      case 'answer_reset':
      case 'read':
        break;
    }
  };
  return {
    onEvent(event) {
      note(event);
      onEvent(event);
    },
    log: () => ({
      ...start,
      question: cut(start.question, MAX_LOGGED_TEXT_CHARS),
      answer,
      steps,
    }),
  };
}

function cut(text: string, max = MAX_LOGGED_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [cut: ${text.length - max} more characters]`;
}
