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
import { bucketMs, distinct, statsParams } from '../admin-stats-rows.js';
import type { FailWith } from './sqlite-usage.js';

type Params = Record<string, unknown>;
type Statement<R> = Database.Statement<Params, R>;

/** The statements of one way of reading a period: from the rollups, or from the usage records themselves. */
interface Reader {
  daily: Statement<DailyUsage>;
  durations: Statement<{ day: number; bucket: number; runs: number }>;
  tools: Statement<{ tool: string; calls: number }>;
  people: Statement<TopEntry>;
  channels: Statement<TopEntry>;
  models: Statement<{ model: string }>;
}

const TAKEN = "outcome IN ('pending', 'answered', 'failed', 'cancelled')";
const PLATFORM_MODEL = '(@platform IS NULL OR platform = @platform) AND (@model IS NULL OR model = @model)';
const OFFSET = 'CAST(@offset AS INTEGER)';
const SUMS = `SUM(questions) AS questions, SUM(refused) AS refused, SUM(limited) AS limited,
  SUM(model_calls) AS modelCalls, SUM(prompt_tokens) AS promptTokens, SUM(completion_tokens) AS completionTokens,
  SUM(cached_tokens) AS cachedTokens`;
const TOP_ORDER = 'ORDER BY promptTokens + completionTokens DESC, questions DESC LIMIT @top';

/** Reads the rollups (no person or conversation narrowed): hours for the charts, UTC days for the rest. */
function rollupReader(db: Database.Database): Reader {
  const days = 'day >= @sinceDay AND day <= @untilDay';
  const top = (table: string, column: string) =>
    db.prepare<Params, TopEntry>(
      `SELECT ${column} AS name, SUM(questions) AS questions, SUM(prompt_tokens) AS promptTokens,
         SUM(completion_tokens) AS completionTokens
       FROM ${table} WHERE ${days} AND (@platform IS NULL OR platform = @platform)
       GROUP BY ${column} ${TOP_ORDER}`,
    );
  return {
    daily: db.prepare(
      `SELECT (hour * 3600000 + ${OFFSET}) / 86400000 AS day, platform, ${SUMS} FROM usage_hours
       WHERE hour >= @sinceHour AND hour < @untilHour AND ${PLATFORM_MODEL} GROUP BY 1, 2 ORDER BY 1, 2`,
    ),
    durations: db.prepare(
      `SELECT day, bucket, SUM(runs) AS runs FROM usage_day_durations WHERE ${days} AND ${PLATFORM_MODEL}
       GROUP BY day, bucket`,
    ),
    tools: db.prepare(
      `SELECT tool, SUM(calls) AS calls FROM usage_day_tools WHERE ${days} AND ${PLATFORM_MODEL} GROUP BY tool`,
    ),
    people: top('usage_day_people', 'user_id'),
    channels: top('usage_day_channels', 'key'),
    models: db.prepare(
      `SELECT DISTINCT model FROM usage_hours WHERE hour >= @sinceHour AND hour < @untilHour
         AND (@platform IS NULL OR platform = @platform)`,
    ),
  };
}

/**
 * Reads the usage records of the period. `only` narrows to one person or conversation by its own index
 * (usage_by_user, usage_by_key); without it the covering index usage_admin is read.
 */
function recordsReader(db: Database.Database, only: 'user_id' | 'key' | undefined): Reader {
  const from = only ? 'usage' : 'usage INDEXED BY usage_admin';
  const where = `at >= @since AND at < @until AND ${PLATFORM_MODEL}${only ? ` AND ${only} = @${only === 'key' ? 'key' : 'userId'}` : ''}`;
  const day = `(at + ${OFFSET}) / 86400000`;
  const duration = 'CAST(duration_ms AS TEXT)';
  const top = (column: string) =>
    db.prepare<Params, TopEntry>(
      `SELECT ${column} AS name, SUM(${TAKEN}) AS questions, SUM(prompt_tokens) AS promptTokens,
         SUM(completion_tokens) AS completionTokens
       FROM ${from} WHERE ${where} AND ${column} IS NOT NULL AND outcome <> 'summary'
       GROUP BY ${column} ${TOP_ORDER}`,
    );
  return {
    daily: db.prepare(
      `SELECT ${day} AS day, platform, SUM(${TAKEN}) AS questions, SUM(outcome = 'refused') AS refused,
         SUM(outcome = 'limited') AS limited, SUM(model_calls) AS modelCalls, SUM(prompt_tokens) AS promptTokens,
         SUM(completion_tokens) AS completionTokens, SUM(cached_tokens) AS cachedTokens
       FROM ${from} WHERE ${where} GROUP BY 1, 2 ORDER BY 1, 2`,
    ),
    durations: db.prepare(
      `SELECT ${day} AS day, length(${duration}) * 100 + CAST(substr(${duration}, 1, 2) AS INTEGER) AS bucket,
         COUNT(*) AS runs
       FROM ${from} WHERE ${where} AND outcome = 'answered' GROUP BY 1, 2`,
    ),
    tools: db.prepare(
      `SELECT j.key AS tool, SUM(j.value) AS calls FROM ${from}, json_each(usage.tools) j
       WHERE ${where.replace(/(?<![@.\w])(at|platform|model|key|user_id) /g, 'usage.$1 ')} AND usage.tools <> '{}'
       GROUP BY j.key`,
    ),
    people: top('user_id'),
    channels: top('key'),
    models: db.prepare(
      `SELECT DISTINCT model FROM ${from} WHERE ${where.replace('(@model IS NULL OR model = @model)', '1')}`,
    ),
  };
}

/**
 * The admin page's aggregates on SQLite. A period narrowed to nobody in particular is read from the rollups
 * (a few thousand rows for 90 days, whatever the number of records); one person's or conversation's from
 * their records by index; one model's top people and channels from the covering index.
 */
export function sqliteAdminStats(db: Database.Database, fail: FailWith): AdminStatsStore {
  const rollups = rollupReader(db);
  const all = recordsReader(db, undefined);
  const byUser = recordsReader(db, 'user_id');
  const byKey = recordsReader(db, 'key');
  const failed = db.prepare<Params, { tool: string; failed: number }>(
    `SELECT t.tool, COUNT(*) AS failed FROM run_log_tools t JOIN usage u ON u.id = t.usage_id
     WHERE t.at >= @since AND t.at < @until AND t.ok = 0 AND (@platform IS NULL OR u.platform = @platform)
       AND (@key IS NULL OR u.key = @key) AND (@userId IS NULL OR u.user_id = @userId)
       AND (@model IS NULL OR u.model = @model)
     GROUP BY t.tool`,
  );
  const votes = db.prepare<Params, DailyVotes>(
    `SELECT (at + ${OFFSET}) / 86400000 AS day, SUM(vote = 'up') AS up, SUM(vote = 'down') AS down FROM feedback
     WHERE at >= @since AND at < @until AND (@platform IS NULL OR platform = @platform)
       AND (@key IS NULL OR key = @key)
     GROUP BY day ORDER BY day`,
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
      const params: Params = statsParams(query, top);
      const reader = query.userId ? byUser : query.key ? byKey : rollups;
      // The rollups keep no model per person or conversation: one model's tops come from the records.
      const tops = reader === rollups && query.model ? all : reader;
      try {
        const days = reader.daily.all(params);
        const failures = new Map(failed.all(params).map((r) => [r.tool, r.failed]));
        const counted: ToolCount[] = reader.tools
          .all(params)
          .map((r) => ({ tool: r.tool, calls: r.calls, failed: failures.get(r.tool) ?? 0 }));
        return {
          daily: days,
          durations: reader.durations
            .all(params)
            .map((r) => ({ day: r.day, ms: bucketMs(r.bucket), runs: r.runs })),
          topPeople: tops.people.all(params),
          topChannels: tops.channels.all(params),
          tools: counted
            .filter((t) => t.calls > 0)
            .sort((a, b) => b.calls - a.calls || a.tool.localeCompare(b.tool)),
          votes: votes.all(params),
          platforms: distinct(days.map((d) => d.platform)),
          models: distinct(reader.models.all(params).map((r) => r.model)),
        };
      } catch (err) {
        throw fail('count usage for the admin page', err);
      }
    },
  };
}
