import type { AgentEventHandler } from '../agent/events.js';
import type { PendingCall } from '../agent/tool-call.js';
import type { ChatMessage, TokenUsage } from '../llm/types.js';
import type { Tool } from '../tools/define-tool.js';

/** One tool call the agent is about to run, its arguments already checked against the tool's schema. */
export interface GatedCall {
  step: number;
  callId: string;
  tool: Tool;
  input: unknown;
}

/** Whether the call runs; when not, the Observation the model reads instead. */
export type GateVerdict = { run: true } | { run: false; observation: string };

/** What the gate may use while a call waits: the run's signal (Stop), its events, and its clock. */
export interface GateContext {
  signal: AbortSignal;
  emit: AgentEventHandler;
  /** Pauses the run's timer (RUN_TIMEOUT_MS) while a person decides; the returned function resumes it. */
  pause(): () => void;
  /** The run as it stands at this step: what resuming it needs if the process stops while a person decides. */
  checkpoint(): AgentCheckpoint;
}

/** A run stopped at the step whose tool calls wait: resumed, that step's calls run and the loop goes on. */
export interface AgentCheckpoint {
  /** The conversation before the model's reply at this step. */
  messages: ChatMessage[];
  /** The model's reply that asked for the calls. */
  record: ChatMessage;
  calls: PendingCall[];
  step: number;
  /** Tokens spent so far. */
  usage: TokenUsage;
  /** The run already retried a reply cut by the length limit (it is retried once per run). */
  retriedCut: boolean;
}

/**
 * Asked before each tool call of a run: lets it run at once, or waits for a person's decision when the
 * tool's policy says so. Rejects with the signal's reason when the run is stopped while waiting.
 */
export type ApprovalGate = (call: GatedCall, context: GateContext) => Promise<GateVerdict>;
