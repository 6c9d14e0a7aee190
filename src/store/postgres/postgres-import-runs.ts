import type { StoredUsageRecord } from '../../core/ports/usage-store.js';
import type { ExportedRunLog, ExportedWebChat } from '../sqlite/sqlite-export-tables.js';
import { type PostgresDb, Rollback } from './postgres-db.js';

/** What copying a batch of run logs did. */
export interface RunLogsCopied {
  logs: number;
  tools: number;
  /** Tool calls of runs whose log was there already. */
  toolsThere: number;
  /** Logs whose usage record is in neither store, so no run in Postgres can show them. */
  orphans: number;
}

/**
 * Copies run logs (with their tool calls) onto the copies of their usage records, found by `identity` (the
 * records must be copied first); a run that has a log there already keeps it, tool calls included.
 */
export function importRunLogs(
  db: PostgresDb,
  logs: readonly ExportedRunLog[],
  identity: (r: StoredUsageRecord) => string,
): Promise<RunLogsCopied> {
  return db.transaction('copy run logs', async (sql) => {
    const sources = logs.map((l) => (l.record ? identity(l.record) : null));
    const { rows } = await sql<{ id: string; imported_from: string }>(
      'SELECT id, imported_from FROM usage WHERE imported_from = ANY($1::text[])',
      [sources.filter((s) => s !== null)],
    );
    const idOf = new Map(rows.map((r) => [r.imported_from, Number(r.id)]));
    const found = logs.flatMap((log, i) => {
      const id = idOf.get(sources[i] ?? '');
      return id === undefined ? [] : [{ id, log }];
    });
    const column = <T>(pick: (l: ExportedRunLog) => T) => found.map((f) => pick(f.log));
    const inserted = await sql<{ usage_id: string }>(
      `INSERT INTO run_logs (usage_id, at, platform, key, user_id, question, answer, steps)
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[],
                            $7::text[], $8::jsonb[])
       ON CONFLICT (usage_id) DO NOTHING RETURNING usage_id`,
      [
        found.map((f) => f.id),
        column((l) => l.at),
        column((l) => l.platform),
        column((l) => l.key),
        column((l) => l.userId),
        column((l) => l.question),
        column((l) => l.answer),
        column((l) => l.steps),
      ],
    );
    const fresh = new Set(inserted.rows.map((r) => Number(r.usage_id)));
    const tools = found
      .filter((f) => fresh.has(f.id))
      .flatMap((f) => f.log.tools.map((t) => ({ ...t, id: f.id })));
    const toolsThere = found.filter((f) => !fresh.has(f.id)).reduce((n, f) => n + f.log.tools.length, 0);
    if (tools.length > 0) {
      await sql(
        `INSERT INTO run_log_tools (usage_id, at, tool, ok, ms)
         SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::boolean[], $5::int[])`,
        [
          tools.map((t) => t.id),
          tools.map((t) => t.at),
          tools.map((t) => t.tool),
          tools.map((t) => t.ok),
          tools.map((t) => t.ms),
        ],
      );
    }
    return { logs: fresh.size, tools: tools.length, toolsThere, orphans: logs.length - found.length };
  });
}

/** Copies a web chat with its runs (in order) unless its key is there; true if copied. */
export function importWebChat(db: PostgresDb, chat: ExportedWebChat): Promise<boolean> {
  return db.transaction('copy a web chat', async (sql) => {
    const created = await sql(
      `INSERT INTO web_chats (key, owner, title, created_at, updated_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (key) DO NOTHING`,
      [chat.key, chat.owner, chat.title, chat.createdAt, chat.updatedAt],
    );
    if (created.rowCount !== 1) throw new Rollback(false);
    if (chat.runs.length > 0) {
      await sql(
        `INSERT INTO web_chat_runs (key, run_id, run, created_at)
         SELECT $1, run_id, run, created_at
           FROM unnest($2::text[], $3::text[], $4::bigint[]) WITH ORDINALITY AS t(run_id, run, created_at, n)
          ORDER BY n`,
        [
          chat.key,
          chat.runs.map((r) => r.runId),
          chat.runs.map((r) => r.run),
          chat.runs.map((r) => r.createdAt),
        ],
      );
    }
    return true;
  });
}
