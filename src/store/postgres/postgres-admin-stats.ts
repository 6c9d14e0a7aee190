import type {
  AdminStats,
  AdminStatsQuery,
  AdminStatsStore,
  DailyUsage,
  DailyVotes,
  TopEntry,
} from '../../core/ports/admin-stats-store.js';
import { bucketMs, distinct, statsParams } from '../admin-stats-rows.js';
import type { PostgresDb } from './postgres-db.js';

type Values = Record<string, unknown>;

/** `:name` placeholders as `$n`, with the values of the names used (each typed in the SQL where it is read). */
function named(sql: string, values: Values): [string, unknown[]] {
  const order: string[] = [];
  const text = sql.replace(/(?<!:):([a-zA-Z]+)\b/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`no value for :${name}`);
    const at = order.indexOf(name);
    if (at >= 0) return `$${at + 1}`;
    order.push(name);
    return `$${order.length}`;
  });
  return [text, order.map((name) => values[name])];
}

/** The statements of one way of reading a period (as on SQLite: the rollups, or the records). */
interface Reader {
  daily: string;
  durations: string;
  tools: string;
  people: string;
  channels: string;
  models: string;
}

const TAKEN = "outcome IN ('pending', 'answered', 'failed', 'cancelled')";
const PLATFORM_MODEL =
  '(:platform::text IS NULL OR platform = :platform) AND (:model::text IS NULL OR model = :model)';
const TOP_ORDER = 'ORDER BY SUM(prompt_tokens) + SUM(completion_tokens) DESC, 2 DESC LIMIT :top';

const DAYS = 'day >= :sinceDay AND day <= :untilDay';
const rollupTop = (table: string, column: string) => `SELECT ${column} AS name, SUM(questions) AS questions,
    SUM(prompt_tokens) AS "promptTokens", SUM(completion_tokens) AS "completionTokens"
  FROM ${table} WHERE ${DAYS} AND (:platform::text IS NULL OR platform = :platform)
  GROUP BY ${column} ${TOP_ORDER}`;

/** Reads the rollups (no person or conversation narrowed): hours for the charts, UTC days for the rest. */
const ROLLUPS: Reader = {
  daily: `SELECT (hour * 3600000 + :offset::bigint) / 86400000 AS day, platform, SUM(questions) AS questions,
      SUM(refused) AS refused, SUM(limited) AS limited, SUM(model_calls) AS "modelCalls",
      SUM(prompt_tokens) AS "promptTokens", SUM(completion_tokens) AS "completionTokens",
      SUM(cached_tokens) AS "cachedTokens"
    FROM usage_hours WHERE hour >= :sinceHour AND hour < :untilHour AND ${PLATFORM_MODEL} GROUP BY 1, 2 ORDER BY 1, 2`,
  durations: `SELECT day, bucket, SUM(runs) AS runs FROM usage_day_durations WHERE ${DAYS} AND ${PLATFORM_MODEL}
    GROUP BY day, bucket`,
  tools: `SELECT tool, SUM(calls) AS calls FROM usage_day_tools WHERE ${DAYS} AND ${PLATFORM_MODEL} GROUP BY tool`,
  people: rollupTop('usage_day_people', 'user_id'),
  channels: rollupTop('usage_day_channels', 'key'),
  models: `SELECT DISTINCT model FROM usage_hours WHERE hour >= :sinceHour AND hour < :untilHour
    AND (:platform::text IS NULL OR platform = :platform)`,
};

/** Reads the records of the period, narrowed to one person or conversation (by their index) when `only`. */
function recordsReader(only: 'user_id' | 'key' | undefined): Reader {
  const where = (t = '') =>
    `${t}at >= :since AND ${t}at < :until AND (:platform::text IS NULL OR ${t}platform = :platform)
     AND (:model::text IS NULL OR ${t}model = :model)${only ? ` AND ${t}${only} = :${only === 'key' ? 'key' : 'userId'}` : ''}`;
  const day = '(at + :offset::bigint) / 86400000';
  const top = (column: string) => `SELECT ${column} AS name, COUNT(*) FILTER (WHERE ${TAKEN}) AS questions,
      COALESCE(SUM(prompt_tokens), 0) AS "promptTokens", COALESCE(SUM(completion_tokens), 0) AS "completionTokens"
    FROM usage WHERE ${where()} AND ${column} IS NOT NULL AND outcome <> 'summary'
    GROUP BY ${column} ${TOP_ORDER}`;
  return {
    daily: `SELECT ${day} AS day, platform, COUNT(*) FILTER (WHERE ${TAKEN}) AS questions,
        COUNT(*) FILTER (WHERE outcome = 'refused') AS refused, COUNT(*) FILTER (WHERE outcome = 'limited') AS limited,
        SUM(model_calls) AS "modelCalls", SUM(prompt_tokens) AS "promptTokens",
        SUM(completion_tokens) AS "completionTokens", SUM(cached_tokens) AS "cachedTokens"
      FROM usage WHERE ${where()} GROUP BY 1, 2 ORDER BY 1, 2`,
    durations: `SELECT ${day} AS day, length(duration_ms::text) * 100 + substr(duration_ms::text, 1, 2)::int AS bucket,
        COUNT(*) AS runs
      FROM usage WHERE ${where()} AND outcome = 'answered' GROUP BY 1, 2`,
    tools: `SELECT j.key AS tool, SUM(j.value::int) AS calls FROM usage u, jsonb_each_text(u.tools) j
      WHERE ${where('u.')} AND u.tools <> '{}'::jsonb GROUP BY j.key`,
    people: top('user_id'),
    channels: top('key'),
    models: `SELECT DISTINCT model FROM usage WHERE ${where().replace('(:model::text IS NULL OR model = :model)', 'TRUE')}`,
  };
}

const ALL = recordsReader(undefined);
const BY_USER = recordsReader('user_id');
const BY_KEY = recordsReader('key');

const FAILED = `SELECT t.tool, COUNT(*) AS failed FROM run_log_tools t JOIN usage u ON u.id = t.usage_id
  WHERE t.at >= :since AND t.at < :until AND NOT t.ok AND (:platform::text IS NULL OR u.platform = :platform)
    AND (:key::text IS NULL OR u.key = :key) AND (:userId::text IS NULL OR u.user_id = :userId)
    AND (:model::text IS NULL OR u.model = :model)
  GROUP BY t.tool`;
const VOTES = `SELECT (at + :offset::bigint) / 86400000 AS day, COUNT(*) FILTER (WHERE vote = 'up') AS up,
    COUNT(*) FILTER (WHERE vote = 'down') AS down FROM feedback
  WHERE at >= :since AND at < :until AND (:platform::text IS NULL OR platform = :platform)
    AND (:key::text IS NULL OR key = :key)
  GROUP BY 1 ORDER BY 1`;

/**
 * The admin page's aggregates on Postgres, run side by side on the pool: from the rollups when nobody in
 * particular is asked about, else from the records by index (as on SQLite).
 */
export function postgresAdminStats(db: PostgresDb): AdminStatsStore {
  return {
    async adminChannelSettings() {
      const { rows } = await db.query<{ key: string; name: string; value: string }>(
        'read the channel settings',
        'SELECT key, name, value FROM channel_settings ORDER BY key, name',
      );
      return rows;
    },
    async adminStats(query: AdminStatsQuery, top: number): Promise<AdminStats> {
      const values: Values = statsParams(query, top);
      const reader = query.userId ? BY_USER : query.key ? BY_KEY : ROLLUPS;
      const tops = reader === ROLLUPS && query.model ? ALL : reader;
      const run = <R extends Record<string, unknown>>(sql: string) =>
        db.query<R>('count usage for the admin page', ...named(sql, values));
      const [daily, durations, people, channels, tools, failed, votes, models] = await Promise.all([
        run<DailyUsage & Record<string, unknown>>(reader.daily),
        run<{ day: number; bucket: number; runs: number }>(reader.durations),
        run<TopEntry & Record<string, unknown>>(tops.people),
        run<TopEntry & Record<string, unknown>>(tops.channels),
        run<{ tool: string; calls: number }>(reader.tools),
        run<{ tool: string; failed: number }>(FAILED),
        run<DailyVotes & Record<string, unknown>>(VOTES),
        run<{ model: string }>(reader.models),
      ]);
      const failures = new Map(failed.rows.map((r) => [r.tool, Number(r.failed)]));
      return {
        daily: daily.rows,
        durations: durations.rows.map((r) => ({ day: r.day, ms: bucketMs(r.bucket), runs: r.runs })),
        topPeople: people.rows,
        topChannels: channels.rows,
        tools: tools.rows
          .map((r) => ({ tool: r.tool, calls: Number(r.calls), failed: failures.get(r.tool) ?? 0 }))
          .filter((t) => t.calls > 0)
          .sort((a, b) => b.calls - a.calls || a.tool.localeCompare(b.tool)),
        votes: votes.rows,
        platforms: distinct(daily.rows.map((d) => d.platform)),
        models: distinct(models.rows.map((r) => r.model)),
      };
    },
  };
}
