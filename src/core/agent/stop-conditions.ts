import type { TokenUsage } from '../llm/types.js';

/** What the loop knows before a step: that step's number (from 1) and the tokens spent so far. */
export interface LoopState {
  readonly step: number;
  readonly usage: Readonly<TokenUsage>;
}

/** Why the coming step must be the last; `message` is the answer if the model still asks for a tool then. */
export interface StopReason {
  readonly kind: string;
  readonly message: string;
}

/** Checked before each step: a reason makes that step the last, where the model must answer without tools. */
export type StopCondition = (state: LoopState) => StopReason | undefined;

/** The step numbered `limit` is the last. */
export function maxSteps(limit: number): StopCondition {
  const reason: StopReason = {
    kind: 'max_steps',
    message: `I could not finish within ${limit} steps; please ask again more specifically.`,
  };
  return ({ step }) => (step >= limit ? reason : undefined);
}

/** The first reason any condition gives for `state`, if any. */
export function firstStop(conditions: readonly StopCondition[], state: LoopState): StopReason | undefined {
  for (const condition of conditions) {
    const reason = condition(state);
    if (reason) return reason;
  }
  return undefined;
}
