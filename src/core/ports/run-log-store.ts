import type { AdminStatsStore } from './admin-stats-store.js';
import type { ApprovalOutcome } from './approval-store.js';
import type { UsageOutcome } from './usage-store.js';

/** One thing that happened in a run, `at` milliseconds after it started. */
export type RunStep =
  | { kind: 'thought'; at: number; step: number; text: string }
  | {
      kind: 'model';
      at: number;
      step: number;
      /** How long the call took (since the previous model call ended or the run started). */
      ms: number;
      promptTokens: number;
      completionTokens: number;
      cachedTokens: number;
    }
  | { kind: 'action'; at: number; step: number; callId: string; tool: string; input: string }
  | {
      kind: 'observation';
      at: number;
      step: number;
      callId: string;
      tool: string;
      text: string;
      ok: boolean;
      /** Since its action. */
      ms: number;
    }
  /** A call that waited for a person: how it was decided, by whom (their name), after how long. */
  | {
      kind: 'approval';
      at: number;
      callId: string;
      tool: string;
      outcome: ApprovalOutcome;
      by?: string | undefined;
      reason?: string | undefined;
      waitedMs: number;
    }
  | { kind: 'answer'; at: number; text: string; truncated?: string | undefined }
  /** Codes besides the run's own notices and errors: `scheduled` and `resumed` say how the run began. */
  | { kind: 'notice' | 'error'; at: number; code: string; text: string };

/** Who asked what, where: known when a question is taken. */
export interface RunLogStart {
  /** The usage record's id (one run, one record). */
  usageId: number;
  /** When the run was taken, ms since the epoch. */
  at: number;
  platform: string;
  key: string;
  userId: string | null;
  question: string;
}

/** A run's log as recorded: the usage record it belongs to, what was asked, its steps and the answer. */
export interface RunLog extends RunLogStart {
  answer: string | null;
  steps: RunStep[];
}

/** The usage record's side of a run: where, who, outcome, spending. */
export interface RunSummary {
  id: number;
  at: number;
  platform: string;
  key: string;
  userId: string | null;
  model: string;
  outcome: UsageOutcome;
  modelCalls: number;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  durationMs: number;
  tools: Record<string, number>;
  /** The question's start, when its log is kept. */
  question: string | null;
  /** Votes on answers in this conversation cast after this run and before the next one. */
  up: number;
  down: number;
}

/** A run with its log (absent when past retention or never kept). */
export interface RunDetail extends RunSummary {
  log: RunLog | undefined;
}

/** Which runs to list: newest first, before the cursor, matching all given filters. */
export interface RunListQuery {
  since: number;
  until: number;
  platform?: string | undefined;
  key?: string | undefined;
  userId?: string | undefined;
  model?: string | undefined;
  outcome?: UsageOutcome | undefined;
  /** Words the question, answer, conversation key or person must contain (case-insensitive). */
  search?: string | undefined;
  /** Only runs with a smaller id (the last id of the previous page). */
  before?: number | undefined;
  limit: number;
}

/** A 👎 that came with its reason, and the run it was about: the conversation's latest answer before the vote. */
export interface Downvote {
  platform: string;
  /** The feedback's own run id (what the buttons carried). */
  runId: string;
  userId: string;
  key: string;
  comment: string;
  at: number;
  /** The run's usage record, and its question and answer when its log is kept (null when none is found). */
  usageId: number | null;
  question: string | null;
  answer: string | null;
}

/** How many characters of a question the runs list shows. */
export const LISTED_QUESTION_CHARS = 160;

/** Each run's steps, model calls and tool calls, kept for the admin page for RUN_LOG_RETENTION_DAYS. */
export interface RunLogStore extends AdminStatsStore {
  /** Keeps a run's log (replacing one kept for the same usage record). */
  saveRunLog(log: RunLog): Promise<void>;
  /** The run of usage record `id`, with its log when kept; undefined when there is no such question. */
  runDetail(id: number): Promise<RunDetail | undefined>;
  /** Runs (questions: no memory summaries) matching `query`, newest first. */
  listRuns(query: RunListQuery): Promise<RunSummary[]>;
  /** 👎 votes with a reason cast at `since <= at < until`, newest first, with the runs they were about. */
  listDownvotes(query: { since: number; until: number; limit: number }): Promise<Downvote[]>;
  /** Drops the logs of runs taken before `before`; returns how many. */
  pruneRunLogs(before: number): Promise<number>;
  /** Drops the logs of `principal`'s questions (forget-me), in conversation `key` or everywhere; returns how many. */
  forgetRunLogs(principal: string, key?: string | undefined): Promise<number>;
}
