import type { AgentEventHandler, RunResult } from './agent/events.js';

/** A question addressed to the bot in one conversation (channel, thread or DM). */
export interface AskRequest {
  /** Conversation key, e.g. `console:local`, `discord:<guild|dm>:<channel>`, `slack:<team>:<channel>`. */
  key: string;
  /**
   * Display name of the asker; shared channels have many speakers. A promise (e.g. a pending name lookup)
   * is awaited in the channel's turn, so it cannot reorder questions.
   */
  author: string | PromiseLike<string>;
  text: string;
  signal?: AbortSignal;
}

/** How an ask ended; `busy` means the channel's queue was full and nothing ran. */
export type AskOutcome = RunResult | { status: 'busy'; message: string };

/** What `/memory` shows about a conversation. */
export interface MemoryReport {
  summary: string | null;
  /** Turns kept verbatim. */
  turns: number;
  /** Tokens of the kept turns plus the summary. */
  tokens: number;
  /** Turns folded into the summary so far. */
  summarizedTurns: number;
}

/** The platform-neutral service every adapter talks to. Failures arrive as `error` events too. */
export interface Assistant {
  ask(request: AskRequest, onEvent: AgentEventHandler): Promise<AskOutcome>;
  reset(key: string): Promise<void>;
  memory(key: string): Promise<MemoryReport>;
  /** Stops taking work and waits for runs and memory compression in flight. */
  close(): Promise<void>;
}
