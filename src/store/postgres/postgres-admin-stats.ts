import type {
  AdminStats,
  AdminStatsQuery,
  AdminStatsStore,
  DailyUsage,
  DailyVotes,
  TopEntry,
} from '../../core/ports/admin-stats-store.js';
import { bucketMs, distinct } from '../admin-stats-rows.js';
import type { PostgresDb } from './postgres-db.js';

const TAKEN = "outcome IN ('pending', 'answered', 'failed', 'cancelled')";
// $1..$7: since, until, offset, platform, key, userId, model; every statement names all seven (typed), so
// one parameter list serves them all.
const filter = (t = '') => `${t}at >= $1 AND ${t}at < $2 AND $3::bigint IS NOT NULL
  AND ($4::text IS NULL OR ${t}platform = $4) AND ($5::text IS NULL OR ${t}key = $5)
  AND ($6::text IS NULL OR ${t}user_id = $6) AND ($7::text IS NULL OR ${t}model = $7)`;
const FILTER = filter();
const DAY = '(at + $3::bigint) / 86400000';
const DURATION = 'duration_ms::text';
const TOP = (column: string) => `SELECT ${column} AS name, COUNT(*) FILTER (WHERE ${TAKEN}) AS questions,
  COALESCE(SUM(prompt_tokens), 0) AS "promptTokens", COALESCE(SUM(completion_tokens), 0) AS "completionTokens"
  FROM usage WHERE ${FILTER} AND ${column} IS NOT NULL AND outcome <> 'summary'
  GROUP BY ${column}
  ORDER BY SUM(prompt_tokens) + SUM(completion_tokens) DESC, 2 DESC LIMIT $8`;

/** The admin page's aggregates on Postgres, run side by side on the pool. */
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
      const params = [
        query.since,
        query.until,
        query.offsetMs,
        query.platform ?? null,
        query.key ?? null,
        query.userId ?? null,
        query.model ?? null,
      ];
      const what = 'count usage for the admin page';
      const [daily, durations, people, channels, tools, failed, votes, models] = await Promise.all([
        db.query<DailyUsage>(
          what,
          `SELECT ${DAY} AS day, platform, COUNT(*) FILTER (WHERE ${TAKEN}) AS questions,
             COUNT(*) FILTER (WHERE outcome = 'refused') AS refused,
             COUNT(*) FILTER (WHERE outcome = 'limited') AS limited, SUM(model_calls) AS "modelCalls",
             SUM(prompt_tokens) AS "promptTokens", SUM(completion_tokens) AS "completionTokens",
             SUM(cached_tokens) AS "cachedTokens"
           FROM usage WHERE ${FILTER} GROUP BY 1, 2 ORDER BY 1, 2`,
          params,
        ),
        db.query<{ day: number; bucket: number; runs: number }>(
          what,
          `SELECT ${DAY} AS day, length(${DURATION}) * 100 + substr(${DURATION}, 1, 2)::int AS bucket,
             COUNT(*) AS runs
           FROM usage WHERE ${FILTER} AND outcome = 'answered' GROUP BY 1, 2`,
          params,
        ),
        db.query<TopEntry>(what, TOP('user_id'), [...params, top]),
        db.query<TopEntry>(what, TOP('key'), [...params, top]),
        db.query<{ tool: string; calls: number }>(
          what,
          `SELECT j.key AS tool, SUM(j.value::int) AS calls FROM usage, jsonb_each_text(usage.tools) j
           WHERE ${filter('usage.')} AND usage.tools <> '{}'::jsonb GROUP BY j.key`,
          params,
        ),
        db.query<{ tool: string; failed: number }>(
          what,
          `SELECT t.tool, COUNT(*) AS failed FROM run_log_tools t JOIN usage u ON u.id = t.usage_id
           WHERE t.at >= $1 AND t.at < $2 AND NOT t.ok AND ($4::text IS NULL OR u.platform = $4)
             AND ($5::text IS NULL OR u.key = $5) AND ($6::text IS NULL OR u.user_id = $6)
             AND ($7::text IS NULL OR u.model = $7) AND $3::bigint IS NOT NULL
           GROUP BY t.tool`,
          params,
        ),
        db.query<DailyVotes>(
          what,
          `SELECT ${DAY} AS day, COUNT(*) FILTER (WHERE vote = 'up') AS up,
             COUNT(*) FILTER (WHERE vote = 'down') AS down FROM feedback
           WHERE at >= $1 AND at < $2 AND ($4::text IS NULL OR platform = $4) AND ($5::text IS NULL OR key = $5)
             AND ($6::text IS NULL OR $6 IS NOT NULL) AND ($7::text IS NULL OR $7 IS NOT NULL)
           GROUP BY 1 ORDER BY 1`,
          params,
        ),
        db.query<{ model: string }>(
          what,
          `SELECT DISTINCT model FROM usage WHERE ${FILTER.replace('($7::text IS NULL OR model = $7)', '($7::text IS NULL OR TRUE)')}`,
          params,
        ),
      ]);
      const failures = new Map(failed.rows.map((r) => [r.tool, Number(r.failed)]));
      return {
        daily: daily.rows,
        durations: durations.rows.map((r) => ({ day: r.day, ms: bucketMs(r.bucket), runs: r.runs })),
        topPeople: people.rows,
        topChannels: channels.rows,
        tools: tools.rows
          .map((r) => ({ tool: r.tool, calls: Number(r.calls), failed: failures.get(r.tool) ?? 0 }))
          .sort((a, b) => b.calls - a.calls || a.tool.localeCompare(b.tool)),
        votes: votes.rows,
        platforms: distinct(daily.rows.map((d) => d.platform)),
        models: distinct(models.rows.map((r) => r.model)),
      };
    },
  };
}
