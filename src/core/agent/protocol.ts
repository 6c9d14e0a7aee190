import type { ChatMessage, TokenUsage } from '../llm/types.js';
import type { AgentEventHandler } from './events.js';
import type { Observation, PendingCall } from './tool-call.js';

/** What the model decided at one step: the loop's next move. */
export type Decision =
  | { kind: 'final'; text: string; thought: string | undefined; truncated: boolean }
  | { kind: 'act'; thought: string; calls: PendingCall[]; record: ChatMessage }
  /** `plan`: the reply announced a step still to come (a plan, an Action it could not name): never an answer. */
  | { kind: 'invalid'; reason: string; record: ChatMessage; plan?: boolean }
  /**
   * The reply hit the model's length limit before it became a usable answer or a complete tool call;
   * `record` is what it wrote, when that can be shown to the model again.
   */
  | { kind: 'cut'; record?: ChatMessage };

/** Options of one step. */
export interface StepOptions {
  step: number;
  /** The last allowed step: the model must answer without tools. */
  last: boolean;
  signal: AbortSignal;
  emit: AgentEventHandler;
  /** The conversation's prompt-cache key, passed on to the model. */
  cacheKey?: string | undefined;
  /** SHOW_REASONING: the model's reasoning becomes Thought steps; false drops it. */
  showReasoning: boolean;
}

/** One way of talking to the model: native function calling, or the ReAct text format. */
export interface Protocol {
  systemPrompt(date: string): string;
  decide(
    messages: readonly ChatMessage[],
    options: StepOptions,
  ): Promise<{ decision: Decision; usage: TokenUsage }>;
  observationMessages(calls: readonly PendingCall[], observations: readonly Observation[]): ChatMessage[];
  reminder(reason: string): ChatMessage;
  /** Asks the model to reply again, more briefly, after a reply the length limit cut (see `cut`). */
  lengthRetry(): ChatMessage;
  finalStep(): ChatMessage;
}
