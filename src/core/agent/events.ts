import type { Approvers } from '../approvals/approval-policy.js';
import type { ErrorCode } from '../errors.js';
import type { TokenUsage } from '../llm/types.js';
import type { ApprovalOutcome } from '../ports/approval-store.js';
import type { Provenance } from '../util/untrusted.js';

/** Why an answer is incomplete: the model's length limit, or ANSWER_MAX_CHARS cut it. */
export type AnswerCut = 'length' | 'max_chars';

/** Everything a renderer can see of a run, in the order it happens. */
export type AgentEvent =
  | { type: 'thought'; step: number; text: string }
  | { type: 'action'; step: number; callId: string; tool: string; input: unknown }
  | { type: 'observation'; step: number; callId: string; tool: string; text: string; ok: boolean }
  /**
   * A tool call waits for a person's approval before it runs: its exact arguments, who may decide
   * (APPROVERS), and when it expires (ms since the epoch). `id` is what the buttons carry.
   */
  | {
      type: 'approval';
      step: number;
      callId: string;
      id: string;
      tool: string;
      input: unknown;
      approvers: Approvers;
      expiresAt: number;
    }
  /** A pending call was decided: approved or denied (`by` names who pressed), expired, or the run stopped. */
  | {
      type: 'approval_decided';
      id: string;
      callId: string;
      tool: string;
      outcome: ApprovalOutcome;
      by?: string | undefined;
      reason?: string | undefined;
      /** How long it waited, when the run did not see it asked (it was resumed after a restart). */
      waitedMs?: number | undefined;
    }
  /** A piece of the answer as it streams; the `answer` event's text is authoritative. */
  | { type: 'answer_delta'; text: string }
  /** The text streamed so far was not the answer after all (the model went on to call a tool). */
  | { type: 'answer_reset' }
  /** `truncated`: `text` is incomplete (see {@link AnswerCut}) and renderers should say so. */
  | { type: 'answer'; text: string; usage: TokenUsage; steps: number; truncated?: AnswerCut }
  /**
   * Something the asker should know about an answer, shown under it: it could not be remembered, part of
   * what came with the question (the thread, a file, an image) could not be read or seen, or a fallback
   * model (LLM_FALLBACK) answered because the primary was unavailable.
   */
  | { type: 'notice'; code: 'not_remembered' | 'input' | 'model_fallback'; message: string }
  /**
   * What the model was handed as quoted data besides the question (thread messages, replied-to messages,
   * files, other people's notes), with who wrote each: emitted once, before the first model call.
   */
  | { type: 'read'; sources: Provenance[] }
  /** One model call finished, spending `usage` (emitted for every call, whatever the run's outcome). */
  | { type: 'usage'; step: number; usage: TokenUsage }
  | { type: 'error'; code: ErrorCode; message: string };

/** Receives events as they happen; must not throw and should not block. */
export type AgentEventHandler = (event: AgentEvent) => void;

/** How a run ended. */
export type RunResult =
  | { status: 'answered'; text: string; usage: TokenUsage; steps: number; truncated?: AnswerCut }
  | { status: 'failed'; code: ErrorCode; message: string }
  | { status: 'cancelled' };
