import type { AgentCheckpoint, ApprovalGate, GateVerdict } from '../approvals/approval-gate.js';
import type { ContentPart } from '../llm/types.js';
import type { ConversationContext } from '../memory/types.js';
import type { Provenance } from '../util/untrusted.js';
import type { AgentEventHandler, RunResult } from './events.js';

/** One question to run through the agent loop. */
export interface RunInput {
  message: string;
  /** Display name of the asker. */
  author: string;
  /** The channel's summary and recent turns (empty for a fresh channel). */
  context: ConversationContext;
  /** Thread context and attachments, quoted, shown just before the message. */
  preface?: string | undefined;
  /** What the preface quotes, with who wrote it (the reasoning thread shows it). */
  quoted?: readonly Provenance[] | undefined;
  /** Images sent with the message (vision models). */
  images?: readonly ContentPart[] | undefined;
  signal?: AbortSignal;
  /** Groups this conversation's model requests for the server's prompt cache (no user text, no IDs). */
  cacheKey?: string | undefined;
  /** The conversation key (a thread is its own): what recall searches and notes are kept under. */
  key?: string | undefined;
  /** Whose settings apply (a thread's channel): where files shared in the channel are searched. */
  settingsKey?: string | undefined;
  /** Who asks (a principal): whose notes follow them here, and who asked a tool to remember. */
  principal?: string | undefined;
  /** Whether the asker is an admin (asked only when a tool needs to know: `remember` makes admins' notes instructions). */
  askerIsAdmin?: (() => Promise<boolean>) | undefined;
  /** The question was asked in a DM or a private channel: notes made here about the asker stay here. */
  privatePlace?: boolean | undefined;
  /** What the channel's settings change for this run; the agent's defaults elsewhere. */
  profile?: RunProfile | undefined;
  /** Asked before each tool call; calls whose tool needs a person's approval wait for it. None: all run. */
  approve?: ApprovalGate | undefined;
}

/** A channel's choices for one run; each absent field keeps the agent's default. */
export interface RunProfile {
  /** An extra system instruction, placed right after the base system prompt. */
  instructions?: string | undefined;
  /** The model name sent with every request of the run. */
  model?: string | undefined;
  protocol?: 'tools' | 'react' | undefined;
  /** Built-in tool names and MCP server names in force; every tool when absent. */
  tools?: readonly string[] | undefined;
}

/** A run picked up where its tool calls waited for a person (after a restart, or on another replica). */
export interface ResumeInput
  extends Omit<RunInput, 'message' | 'author' | 'context' | 'preface' | 'quoted' | 'images'> {
  checkpoint: AgentCheckpoint;
  /** The decisions made on the waiting calls, by call id; calls of the step without one are asked again. */
  decided: ReadonlyMap<string, GateVerdict>;
}

/** Runs the ReAct loop; never throws for model or tool failures, it reports them as events and a result. */
export interface Agent {
  run(input: RunInput, onEvent?: AgentEventHandler): Promise<RunResult>;
  /** Goes on with a run from the step whose tool calls waited, those calls decided as `decided` says. */
  resume?(input: ResumeInput, onEvent?: AgentEventHandler): Promise<RunResult>;
}
