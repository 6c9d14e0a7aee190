import type { ConversationContext } from '../memory/types.js';
import type { AgentEventHandler, RunResult } from './events.js';

/** One question to run through the agent loop. */
export interface RunInput {
  message: string;
  /** Display name of the asker. */
  author: string;
  /** The channel's summary and recent turns (empty for a fresh channel). */
  context: ConversationContext;
  signal?: AbortSignal;
  /** Groups this conversation's model requests for the server's prompt cache (no user text, no IDs). */
  cacheKey?: string | undefined;
}

/** Runs the ReAct loop; never throws for model or tool failures, it reports them as events and a result. */
export interface Agent {
  run(input: RunInput, onEvent?: AgentEventHandler): Promise<RunResult>;
}
