import {
  NOTHING_SPENT,
  type StoredUsageRecord,
  type UsageOutcome,
  type UsageRecord,
  type UsageResult,
} from '../core/ports/usage-store.js';

/** A row of the `usage` table, as better-sqlite3 reads it. */
export interface UsageRow {
  id: number;
  at: number;
  platform: string;
  key: string;
  user_id: string | null;
  origin: string | null;
  model: string;
  protocol: string;
  outcome: UsageOutcome;
  model_calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  tools: string;
  duration_ms: number;
}

/** The columns a finished run fills in. */
export type SpentColumns = Pick<
  UsageRow,
  | 'outcome'
  | 'model_calls'
  | 'prompt_tokens'
  | 'completion_tokens'
  | 'cached_tokens'
  | 'tools'
  | 'duration_ms'
>;

/** What a record that spent nothing (a limited ask, a pending question) stores. */
export const nothingSpent = (outcome: UsageOutcome) => ({ outcome, ...NOTHING_SPENT });

/** The columns of what a run spent. */
export function spentOf(r: Omit<UsageResult, 'outcome'> & { outcome: UsageOutcome }): SpentColumns {
  return {
    outcome: r.outcome,
    model_calls: r.modelCalls,
    prompt_tokens: r.promptTokens,
    completion_tokens: r.completionTokens,
    cached_tokens: r.cachedTokens,
    tools: JSON.stringify(r.tools),
    duration_ms: r.durationMs,
  };
}

/** The row that stores a record. */
export function rowOf(r: Omit<StoredUsageRecord, 'id'> | UsageRecord): Omit<UsageRow, 'id'> {
  return {
    at: r.at,
    platform: r.platform,
    key: r.key,
    user_id: r.userId,
    origin: r.origin ?? null,
    model: r.model,
    protocol: r.protocol,
    ...spentOf(r),
  };
}

/** The record a row stores. */
export function recordOf(row: UsageRow): StoredUsageRecord {
  return {
    ...placeFrom(row),
    ...(row.origin === null ? {} : { origin: row.origin }),
    model: row.model,
    protocol: row.protocol,
    ...spentFrom(row),
  };
}

/** What a run spent, from its row: {@link spentOf} read back. */
export function spentFrom(
  row: SpentColumns,
): Omit<UsageResult, 'outcome' | 'answeredBy'> & { outcome: UsageOutcome } {
  return {
    outcome: row.outcome,
    modelCalls: row.model_calls,
    promptTokens: row.prompt_tokens,
    completionTokens: row.completion_tokens,
    cachedTokens: row.cached_tokens,
    tools: JSON.parse(row.tools) as Record<string, number>,
    durationMs: row.duration_ms,
  };
}

/** Which record, when, where and whose, from a usage row (or a run's, which has the same columns). */
export function placeFrom(row: Pick<UsageRow, 'id' | 'at' | 'platform' | 'key' | 'user_id'>) {
  return { id: row.id, at: row.at, platform: row.platform, key: row.key, userId: row.user_id };
}
