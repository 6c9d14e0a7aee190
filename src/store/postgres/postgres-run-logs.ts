import type { RunLogStore } from '../../core/ports/run-log-store.js';
import { numbered } from '../numbered-params.js';
import {
  type DownvoteRow,
  detailOf,
  downvoteOf,
  type RunDetailRow,
  type RunRow,
  summaryOf,
  toolCallsOf,
} from '../run-log-rows.js';
import { LIST_DOWNVOTES, likePattern, runColumns, UPSERT_RUN_LOG } from '../run-log-statements.js';
import { postgresAdminStats } from './postgres-admin-stats.js';
import type { PostgresDb } from './postgres-db.js';

const RUN_COLUMNS = runColumns('u.tools::text AS tools');
const UPSERT = numbered(UPSERT_RUN_LOG);
const DOWNVOTES = numbered(LIST_DOWNVOTES);

/** The run-logs half of the Postgres store (with the admin page's aggregates). */
export function postgresRunLogs(db: PostgresDb): RunLogStore {
  return {
    ...postgresAdminStats(db),
    async saveRunLog(log) {
      const calls = toolCallsOf(log);
      await db.transaction('keep a run log', async (sql) => {
        await sql(UPSERT.text, UPSERT.values({ ...log, steps: JSON.stringify(log.steps) }));
        await sql('DELETE FROM run_log_tools WHERE usage_id = $1', [log.usageId]);
        if (calls.length > 0) {
          await sql(
            `INSERT INTO run_log_tools (usage_id, at, tool, ok, ms)
             SELECT $1, $2, * FROM unnest($3::text[], $4::boolean[], $5::int[])`,
            [log.usageId, log.at, calls.map((c) => c.tool), calls.map((c) => c.ok), calls.map((c) => c.ms)],
          );
        }
      });
    },
    async runDetail(id) {
      const { rows } = await db.query<RunDetailRow>(
        'read a run',
        `SELECT ${RUN_COLUMNS}, r.question AS log_question, r.answer, r.steps::text AS steps
         FROM usage u LEFT JOIN run_logs r ON r.usage_id = u.id WHERE u.id = $1 AND u.outcome <> 'summary'`,
        [id],
      );
      const row = rows[0];
      return row && detailOf(row);
    },
    async listRuns(query) {
      const pattern = likePattern(query.search);
      // A search reads only the kept logs (the text is there): newest first by their own key.
      const { rows } = await db.query<RunRow>(
        'list runs',
        `SELECT ${RUN_COLUMNS}
         FROM ${pattern ? 'run_logs r JOIN usage u ON u.id = r.usage_id' : 'usage u LEFT JOIN run_logs r ON r.usage_id = u.id'}
         WHERE u.outcome <> 'summary' AND u.at >= $1 AND u.at < $2
           AND ($3::bigint IS NULL OR u.id < $3)
           AND ($4::text IS NULL OR u.platform = $4) AND ($5::text IS NULL OR u.key = $5)
           AND ($6::text IS NULL OR u.user_id = $6) AND ($7::text IS NULL OR u.model = $7)
           AND ($8::text IS NULL OR u.outcome = $8)
           AND ($9::text IS NULL OR r.question ILIKE $9 OR r.answer ILIKE $9 OR r.key ILIKE $9
             OR r.user_id ILIKE $9)
         ORDER BY ${pattern ? 'r.usage_id' : 'u.id'} DESC LIMIT $10`,
        [
          query.since,
          query.until,
          query.before ?? null,
          query.platform ?? null,
          query.key ?? null,
          query.userId ?? null,
          query.model ?? null,
          query.outcome ?? null,
          pattern,
          query.limit,
        ],
      );
      return rows.map(summaryOf);
    },
    async listDownvotes(query) {
      const { rows } = await db.query<DownvoteRow>(
        'list the 👎 votes',
        DOWNVOTES.text,
        DOWNVOTES.values(query),
      );
      return rows.map(downvoteOf);
    },
    async pruneRunLogs(before) {
      return db.transaction('drop run logs past retention', async (sql) => {
        await sql('DELETE FROM run_log_tools WHERE at < $1', [before]);
        return (await sql('DELETE FROM run_logs WHERE at < $1', [before])).rowCount ?? 0;
      });
    },
    async forgetRunLogs(principal, key) {
      const which = 'user_id = $1 AND ($2::text IS NULL OR key = $2)';
      return db.transaction('forget run logs', async (sql) => {
        await sql(
          `DELETE FROM run_log_tools WHERE usage_id IN (SELECT usage_id FROM run_logs WHERE ${which})`,
          [principal, key ?? null],
        );
        return (await sql(`DELETE FROM run_logs WHERE ${which}`, [principal, key ?? null])).rowCount ?? 0;
      });
    },
  };
}
