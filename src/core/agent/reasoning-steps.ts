import type { AgentEventHandler } from './events.js';

/** Collects one model call's reasoning and shows it as a Thought step, before the reply it led to. */
export interface ReasoningSteps {
  /** For `onReasoningDelta`: a piece of reasoning. */
  push(text: string): void;
  /** Wraps `onTextDelta` so that the reasoning so far is shown before the first piece of reply. */
  before(onText: (text: string) => void): (text: string) => void;
  /** Shows the reasoning not shown yet (the call ended). */
  flush(): void;
}

/** Reasoning of step `step` as `thought` events; with `show` false it is dropped, never shown or kept. */
export function createReasoningSteps(emit: AgentEventHandler, step: number, show: boolean): ReasoningSteps {
  let pending = '';
  const flush = () => {
    const text = pending.trim();
    pending = '';
    if (text && show) emit({ type: 'thought', step, text });
  };
  return {
    push(text) {
      pending += text;
    },
    before: (onText) => (text) => {
      if (pending) flush();
      onText(text);
    },
    flush,
  };
}
