import type Database from 'better-sqlite3';
import type { RunLogStore } from '../../core/ports/run-log-store.js';
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
import { sqliteAdminStats } from './sqlite-admin-stats.js';
import type { FailWith } from './sqlite-usage.js';

const RUN_COLUMNS = runColumns('u.tools');

/** The run-logs half of the SQLite store (with the admin page's aggregates). */
export function sqliteRunLogs(db: Database.Database, fail: FailWith): RunLogStore {
  const upsert = db.prepare(UPSERT_RUN_LOG);
  const dropTools = db.prepare('DELETE FROM run_log_tools WHERE usage_id = ?');
  const addTool = db.prepare(
    'INSERT INTO run_log_tools (usage_id, at, tool, ok, ms) VALUES (@usageId, @at, @tool, @ok, @ms)',
  );
  const save = db.transaction((log: Parameters<RunLogStore['saveRunLog']>[0]) => {
    upsert.run({ ...log, steps: JSON.stringify(log.steps) });
    dropTools.run(log.usageId);
    for (const call of toolCallsOf(log))
      addTool.run({ usageId: log.usageId, at: log.at, tool: call.tool, ok: call.ok ? 1 : 0, ms: call.ms });
  });
  const detail = db.prepare<[number], RunDetailRow>(
    `SELECT ${RUN_COLUMNS}, r.question AS log_question, r.answer, r.steps
     FROM usage u LEFT JOIN run_logs r ON r.usage_id = u.id WHERE u.id = ? AND u.outcome <> 'summary'`,
  );
  // A search reads only the kept logs (the text is there): newest first by their own key.
  const listing = (search: boolean) =>
    db.prepare<Record<string, unknown>, RunRow>(
      `SELECT ${RUN_COLUMNS} FROM ${search ? 'run_logs r JOIN usage u ON u.id = r.usage_id' : 'usage u LEFT JOIN run_logs r ON r.usage_id = u.id'}
       WHERE u.outcome <> 'summary' AND u.at >= @since AND u.at < @until
         AND (@before IS NULL OR u.id < @before)
         AND (@platform IS NULL OR u.platform = @platform) AND (@key IS NULL OR u.key = @key)
         AND (@userId IS NULL OR u.user_id = @userId) AND (@model IS NULL OR u.model = @model)
         AND (@outcome IS NULL OR u.outcome = @outcome)
         ${search ? "AND (r.question LIKE @search ESCAPE '\\' OR r.answer LIKE @search ESCAPE '\\' OR r.key LIKE @search ESCAPE '\\' OR r.user_id LIKE @search ESCAPE '\\')" : ''}
       ORDER BY ${search ? 'r.usage_id' : 'u.id'} DESC LIMIT @limit`,
    );
  const downvotes = db.prepare<{ since: number; until: number; limit: number }, DownvoteRow>(LIST_DOWNVOTES);
  const list = listing(false);
  const search = listing(true);
  const prune = db.transaction((before: number) => {
    db.prepare('DELETE FROM run_log_tools WHERE at < ?').run(before);
    return db.prepare('DELETE FROM run_logs WHERE at < ?').run(before).changes;
  });
  const forget = db.transaction((principal: string, key: string | null) => {
    const which = 'user_id = @principal AND (@key IS NULL OR key = @key)';
    db.prepare(
      `DELETE FROM run_log_tools WHERE usage_id IN (SELECT usage_id FROM run_logs WHERE ${which})`,
    ).run({
      principal,
      key,
    });
    return db.prepare(`DELETE FROM run_logs WHERE ${which}`).run({ principal, key }).changes;
  });
  return {
    ...sqliteAdminStats(db, fail),
    async saveRunLog(log) {
      try {
        save(log);
      } catch (err) {
        throw fail('keep a run log', err);
      }
    },
    async runDetail(id) {
      try {
        const row = detail.get(id);
        return row && detailOf(row);
      } catch (err) {
        throw fail('read a run', err);
      }
    },
    async listRuns(query) {
      try {
        const pattern = likePattern(query.search);
        return (pattern ? search : list)
          .all({
            since: query.since,
            until: query.until,
            before: query.before ?? null,
            platform: query.platform ?? null,
            key: query.key ?? null,
            userId: query.userId ?? null,
            model: query.model ?? null,
            outcome: query.outcome ?? null,
            ...(pattern ? { search: pattern } : {}),
            limit: query.limit,
          })
          .map(summaryOf);
      } catch (err) {
        throw fail('list runs', err);
      }
    },
    async listDownvotes(query) {
      try {
        return downvotes.all(query).map(downvoteOf);
      } catch (err) {
        throw fail('list the 👎 votes', err);
      }
    },
    async pruneRunLogs(before) {
      try {
        return prune(before);
      } catch (err) {
        throw fail('drop run logs past retention', err);
      }
    },
    async forgetRunLogs(principal, key) {
      try {
        return forget(principal, key ?? null);
      } catch (err) {
        throw fail('forget run logs', err);
      }
    },
  };
}
