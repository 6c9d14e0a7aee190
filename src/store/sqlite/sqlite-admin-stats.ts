import type Database from 'better-sqlite3';
import type {
  AdminStats,
  AdminStatsQuery,
  AdminStatsStore,
  DailyUsage,
  DailyVotes,
  ToolCount,
  TopEntry,
} from '../../core/ports/admin-stats-store.js';
import { bucketMs, distinct } from '../admin-stats-rows.js';
import type { FailWith } from './sqlite-usage.js';

const TAKEN = "outcome IN ('pending', 'answered', 'failed', 'cancelled')";
const filter = (
  t = '',
) => `${t}at >= @since AND ${t}at < @until AND (@platform IS NULL OR ${t}platform = @platform)
  AND (@key IS NULL OR ${t}key = @key) AND (@userId IS NULL OR ${t}user_id = @userId)
  AND (@model IS NULL OR ${t}model = @model)`;
const FILTER = filter();
const DAY = '(at + CAST(@offset AS INTEGER)) / 86400000';
const DURATION = 'CAST(duration_ms AS TEXT)';
const TOP = (column: string) => `SELECT ${column} AS name, SUM(${TAKEN}) AS questions,
  SUM(prompt_tokens) AS promptTokens, SUM(completion_tokens) AS completionTokens
  FROM usage INDEXED BY usage_admin WHERE ${FILTER} AND ${column} IS NOT NULL AND outcome <> 'summary'
  GROUP BY ${column} ORDER BY promptTokens + completionTokens DESC, questions DESC LIMIT @top`;

/** The admin page's aggregates on SQLite: each reads one period of the covering index `usage_admin`. */
export function sqliteAdminStats(db: Database.Database, fail: FailWith): AdminStatsStore {
  const daily = db.prepare<Record<string, unknown>, DailyUsage>(
    `SELECT ${DAY} AS day, platform, SUM(${TAKEN}) AS questions, SUM(outcome = 'refused') AS refused,
       SUM(outcome = 'limited') AS limited, SUM(model_calls) AS modelCalls, SUM(prompt_tokens) AS promptTokens,
       SUM(completion_tokens) AS completionTokens, SUM(cached_tokens) AS cachedTokens
     FROM usage INDEXED BY usage_admin WHERE ${FILTER} GROUP BY day, platform ORDER BY day, platform`,
  );
  const durations = db.prepare<Record<string, unknown>, { day: number; bucket: number; runs: number }>(
    `SELECT ${DAY} AS day, length(${DURATION}) * 100 + CAST(substr(${DURATION}, 1, 2) AS INTEGER) AS bucket,
       COUNT(*) AS runs
     FROM usage INDEXED BY usage_admin WHERE ${FILTER} AND outcome = 'answered' GROUP BY day, bucket`,
  );
  const topPeople = db.prepare<Record<string, unknown>, TopEntry>(TOP('user_id'));
  const topChannels = db.prepare<Record<string, unknown>, TopEntry>(TOP('key'));
  const tools = db.prepare<Record<string, unknown>, { tool: string; calls: number }>(
    `SELECT j.key AS tool, SUM(j.value) AS calls FROM usage INDEXED BY usage_admin, json_each(usage.tools) j
     WHERE ${filter('usage.')} AND usage.tools <> '{}' GROUP BY j.key`,
  );
  const failed = db.prepare<Record<string, unknown>, { tool: string; failed: number }>(
    `SELECT t.tool, COUNT(*) AS failed FROM run_log_tools t JOIN usage u ON u.id = t.usage_id
     WHERE t.at >= @since AND t.at < @until AND t.ok = 0 AND (@platform IS NULL OR u.platform = @platform)
       AND (@key IS NULL OR u.key = @key) AND (@userId IS NULL OR u.user_id = @userId)
       AND (@model IS NULL OR u.model = @model)
     GROUP BY t.tool`,
  );
  const votes = db.prepare<Record<string, unknown>, DailyVotes>(
    `SELECT ${DAY} AS day, SUM(vote = 'up') AS up, SUM(vote = 'down') AS down FROM feedback
     WHERE at >= @since AND at < @until AND (@platform IS NULL OR platform = @platform)
       AND (@key IS NULL OR key = @key)
     GROUP BY day ORDER BY day`,
  );
  const models = db.prepare<Record<string, unknown>, { model: string }>(
    `SELECT DISTINCT model FROM usage INDEXED BY usage_admin WHERE ${FILTER}`,
  );
  const settings = db.prepare<[], { key: string; name: string; value: string }>(
    'SELECT key, name, value FROM channel_settings ORDER BY key, name',
  );
  return {
    async adminChannelSettings() {
      try {
        return settings.all();
      } catch (err) {
        throw fail('read the channel settings', err);
      }
    },
    async adminStats(query: AdminStatsQuery, top: number): Promise<AdminStats> {
      const params = {
        since: query.since,
        until: query.until,
        offset: query.offsetMs,
        platform: query.platform ?? null,
        key: query.key ?? null,
        userId: query.userId ?? null,
        model: query.model ?? null,
        top,
      };
      try {
        const days = daily.all(params);
        const failures = new Map(failed.all(params).map((r) => [r.tool, r.failed]));
        const counted: ToolCount[] = tools
          .all(params)
          .map((r) => ({ tool: r.tool, calls: r.calls, failed: failures.get(r.tool) ?? 0 }));
        return {
          daily: days,
          durations: durations.all(params).map((r) => ({ day: r.day, ms: bucketMs(r.bucket), runs: r.runs })),
          topPeople: topPeople.all(params),
          topChannels: topChannels.all(params),
          tools: counted.sort((a, b) => b.calls - a.calls || a.tool.localeCompare(b.tool)),
          votes: votes.all(params),
          platforms: distinct(days.map((d) => d.platform)),
          models: distinct(models.all({ ...params, model: null }).map((r) => r.model)),
        };
      } catch (err) {
        throw fail('count usage for the admin page', err);
      }
    },
  };
}
