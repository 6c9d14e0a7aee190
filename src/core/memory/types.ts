import type { SettingsInForce } from '../settings/channel-settings.js';

/** One completed exchange in a channel: who asked, what, and the final answer. */
export interface Turn {
  author: string;
  question: string;
  answer: string;
  /** Who asked (a principal), when the platform said: how forget-me finds a person's turns. */
  principal?: string | null | undefined;
}

/** What the agent is shown of a channel's past: the running summary and the recent turns verbatim. */
export interface ConversationContext {
  summary?: string | undefined;
  turns: readonly Turn[];
}

/** The limits memory keeps to, named as in the configuration. */
export interface MemoryBudget {
  /** Stored turns beyond this many tokens are folded into the summary. */
  MEMORY_MAX_TOKENS: number;
  /** Turns always kept verbatim; compression waits until there are more. */
  MEMORY_KEEP_TURNS: number;
  /** A summary growing past this is compressed again. */
  MEMORY_SUMMARY_MAX_TOKENS: number;
}

/** The archive's and notes' budgets, named as in the configuration. */
export interface RecallSettings {
  /** Most tokens the recall tool returns. */
  RECALL_MAX_TOKENS: number;
  /** Most tokens of notes in the prompt. */
  NOTES_MAX_TOKENS: number;
  /** Archived turns older than this many days are dropped daily; 0 keeps them. */
  MEMORY_RETENTION_DAYS: number;
}

/** What `/memory` shows about a conversation. */
export interface MemoryReport {
  summary: string | null;
  /** Turns kept verbatim. */
  turns: number;
  /** Tokens of the kept turns plus the summary. */
  tokens: number;
  /** Turns folded into the summary so far. */
  summarizedTurns: number;
  /** The channel settings in force here. */
  settings?: SettingsInForce | undefined;
}

/** Each channel's memory, by conversation key: what the agent sees, what it remembers, and how it forgets. */
export interface ChannelMemory {
  /** The summary and the recent turns, bounded however long the channel has talked. */
  context(key: string): Promise<ConversationContext>;
  /** Stores a completed turn atomically, then compresses in the background if the budget says so. */
  record(key: string, turn: Turn): Promise<void>;
  /** Forgets the channel's turns, summary, archive and channel notes. */
  reset(key: string): Promise<void>;
  /** What `/memory` shows. */
  report(key: string): Promise<MemoryReport>;
  /** Resolves once no compression is in flight (used on shutdown); past `graceMs` they are cancelled. */
  idle(graceMs?: number): Promise<void>;
}
