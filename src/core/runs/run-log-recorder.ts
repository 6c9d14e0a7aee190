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

/** Creates a recorder in front of `onEvent`; `now` is the clock of the step times. */
export function createRunLogRecorder(
  onEvent: AgentEventHandler,
  start: RunLogStart,
  now: () => number = Date.now,
): RunLogRecorder {
  const began = now();
  const steps: RunStep[] = [];
  const actions = new Map<string, number>();
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
