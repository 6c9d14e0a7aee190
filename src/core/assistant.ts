import type { AgentEventHandler, RunResult } from './agent/events.js';
import type {
  ApprovalCallView,
  ApprovalPress,
  ApprovalVerdict,
  Approver,
  WaitingCall,
} from './approvals/approvals.js';
import type { ResumedRun } from './approvals/wait-state.js';
import type { Asker } from './governance/asker.js';
import type { UsageReport } from './governance/governor.js';
import type { Attachment, ContextMessage } from './input/types.js';
import type { ConversationContext, MemoryReport } from './memory/types.js';
import type { FeedbackEntry } from './ports/feedback-store.js';
import type { Arrival } from './ports/run-queue.js';
import type { ToolGroup } from './ports/tool-source.js';
import type { ScheduleCommandPlace } from './schedules/schedule-commands.js';
import type { SettingsChange, SettingsInForce, SettingsOutcome } from './settings/channel-settings.js';

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
  /**
   * Earlier messages of the thread or reply chain, oldest first: shown to the model, never remembered. A
   * promise is awaited in the channel's turn; one rejected with a ContextUnavailableError says why under
   * the answer.
   */
  context?: readonly ContextMessage[] | PromiseLike<readonly ContextMessage[]> | undefined;
  /** Files attached to the question (awaited in the channel's turn); memory keeps only their description. */
  attachments?: readonly Attachment[] | PromiseLike<readonly Attachment[]> | undefined;
  signal?: AbortSignal;
  /** Who asks, for access lists, limits and the usage record; without it none of them apply. */
  asker?: Asker | undefined;
  /** Whose settings apply: the channel a thread or forum post belongs to; `key` itself when unset. */
  settingsKey?: string | undefined;
  /** Its place in the channel's line, taken when it arrived (RunQueue.arrive); else it queues when asked. */
  arrival?: Arrival | undefined;
  /**
   * A run taken over after its process stopped while its tool calls waited for a person: it goes on from
   * there (asked as `asker`, already admitted) instead of starting from `text`.
   */
  resume?: ResumedRun | undefined;
}

/**
 * How an ask ended. Nothing ran when it was `busy` (the channel's queue was full), `refused` (the access
 * lists said no) or `limited` (a rate limit or budget was reached); `message` says so in a sentence.
 */
export type AskOutcome = RunResult | { status: 'busy' | 'refused' | 'limited'; message: string };

/** Whether someone may ask here; when not, the one short reply to give them (privately where possible). */
export type AccessOutcome = { allowed: true } | { allowed: false; message: string };

/** What `/tools` shows: the tools in force, grouped by where they come from, with each server's state. */
export interface ToolReport {
  groups: readonly ToolGroup[];
}

/** The platform-neutral service every adapter talks to. Failures arrive as `error` events too. */
export interface Assistant {
  ask(request: AskRequest, onEvent: AgentEventHandler): Promise<AskOutcome>;
  /** Applies the access lists before anything is shown, so a platform can refuse privately; records refusals. */
  access(asker: Asker, key: string): Promise<AccessOutcome>;
  /** `/usage`: the asker's and the channel's usage, today and this month (the top users too, for admins). */
  usage(asker: Asker, key: string): Promise<UsageReport>;
  reset(key: string): Promise<void>;
  /** Records a vote on an answer (one per person and answer; a later one replaces it). */
  feedback(entry: Omit<FeedbackEntry, 'at'>): Promise<void>;
  /** `/memory`: what is remembered under `key`, and the settings in force (those of `settingsKey`, default `key`). */
  memory(key: string, settingsKey?: string): Promise<MemoryReport>;
  /** Every tool the bot has now, built-in and from MCP servers. */
  tools(): ToolReport;
  /** `/tools`: the tools in force under the settings of `settingsKey`, with each server's state. */
  toolsIn(settingsKey: string): Promise<ToolReport>;
  /** `/settings` (admins only): shows, resets or sets the settings of `settingsKey`. */
  settings(asker: Asker, settingsKey: string, change: SettingsChange): Promise<SettingsOutcome>;
  /** The settings in force under `settingsKey` (e.g. where the steps go, for the renderer). */
  settingsIn(settingsKey: string): Promise<SettingsInForce>;
  /** Questions running or waiting across all channels (a metrics gauge). */
  inFlight(): number;
  /** Why the assistant is not working properly right now (e.g. memory writes failing), for /readyz. */
  health(): string | undefined;
  /** The conversation so far as remembered: the summary of older turns and the turns kept verbatim. */
  history(key: string): Promise<ConversationContext>;
  /**
   * `/memory notes|remember|forget|forget-me …` (see memory-commands.ts): the reply, or undefined when
   * `args` names none of them or the store keeps no notes.
   */
  memoryCommand(asker: Asker, key: string, args: string): Promise<string> | undefined;
  /** `/schedule list|cancel <id>|add "<when>" <question>`: the reply; absent where schedules are not kept. */
  scheduleCommand?(place: ScheduleCommandPlace, args: string): Promise<string>;
  /**
   * A press on Approve or Deny of a pending tool call (`id` from its `approval` event): acts once, and only
   * for those APPROVERS names; absent where no tool needs approval.
   */
  decideApproval?(id: string, who: Approver, verdict: ApprovalVerdict): Promise<ApprovalPress>;
  /** Whether `who` may decide pending approval `id` (before a platform opens a form for a denial's reason). */
  checkApproval?(id: string, who: Approver): Promise<ApprovalPress | { status: 'allowed' }>;
  /**
   * The exact call pending approval `id` waits on (its tool and its whole arguments), for whoever may decide
   * it: what a platform shows one click away when its message had to cut the arguments. Undefined when the
   * approval is no longer pending; `forbidden`/`expired` presses say why not.
   */
  approvalCall?(id: string, who: Approver): Promise<ApprovalCallView>;
  /** Calls of `key` kept from a process that stopped while they waited; a press on one goes on with its run. */
  keptApprovals?(key: string): Promise<WaitingCall[]>;
  /** `/knowledge list|forget <file>`: the files shared in the channel; absent where none are kept. */
  knowledgeCommand?(asker: Asker, settingsKey: string, args: string): Promise<string>;
  /** `/settings approvals [revoke <tool>|all]` (admins): the tools that ask first here, and revoking grants. */
  approvalsCommand?(asker: Asker, settingsKey: string, args: string): Promise<string>;
  /** Stops taking work and waits for runs and memory compression in flight. */
  close(): Promise<void>;
}
