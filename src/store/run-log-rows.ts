import type { Downvote, RunDetail, RunLog, RunStep, RunSummary } from '../core/ports/run-log-store.js';
import type { UsageOutcome } from '../core/ports/usage-store.js';
import { placeFrom, spentFrom } from './usage-rows.js';

/** A listed run as either engine reads it (snake_case columns; tools as JSON text). */
export interface RunRow {
  id: number;
  at: number;
  platform: string;
  key: string;
  user_id: string | null;
  model: string;
  outcome: UsageOutcome;
  model_calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  duration_ms: number;
  tools: string;
  question: string | null;
  up: number;
  down: number;
}

/** A run's row with its log's columns. */
export interface RunDetailRow extends RunRow {
  log_question: string | null;
  answer: string | null;
  steps: string | null;
}

/** A listed run from its row. */
export function summaryOf(row: RunRow): RunSummary {
  return {
    ...placeFrom(row),
    model: row.model,
    ...spentFrom(row),
    question: row.question,
    up: Number(row.up),
    down: Number(row.down),
  };
}

/** A run with its log from its row. */
export function detailOf(row: RunDetailRow): RunDetail {
  const summary = summaryOf(row);
  const log: RunLog | undefined =
    row.steps === null
      ? undefined
      : {
          usageId: row.id,
          at: row.at,
          platform: row.platform,
          key: row.key,
          userId: row.user_id,
          question: row.log_question ?? '',
          answer: row.answer,
          steps: JSON.parse(row.steps) as RunStep[],
        };
  return { ...summary, log };
}

/**
 * The tool calls of a log, for the failing-tools table: tool, whether it worked, how long it took. A call a
 * person denied (or that was not approved in time) never ran, so it neither worked nor failed.
 */
export function toolCallsOf(log: RunLog): { tool: string; ok: boolean; ms: number }[] {
  const notRun = new Set(
    log.steps.flatMap((s) => (s.kind === 'approval' && s.outcome !== 'approved' ? [s.callId] : [])),
  );
  return log.steps.flatMap((step) =>
    step.kind === 'observation' && !notRun.has(step.callId)
      ? [{ tool: step.tool, ok: step.ok, ms: step.ms }]
      : [],
  );
}

/** A 👎 with its run as either engine reads it (bigints may come as strings). */
export interface DownvoteRow {
  platform: string;
  run_id: string;
  user_id: string;
  key: string;
  comment: string;
  at: number | string;
  usage_id: number | string | null;
  question: string | null;
  answer: string | null;
}

/** A 👎 from its row. */
export function downvoteOf(row: DownvoteRow): Downvote {
  return {
    platform: row.platform,
    runId: row.run_id,
    userId: row.user_id,
    key: row.key,
    comment: row.comment,
    at: Number(row.at),
    usageId: row.usage_id === null ? null : Number(row.usage_id),
    question: row.question,
    answer: row.answer,
  };
}
