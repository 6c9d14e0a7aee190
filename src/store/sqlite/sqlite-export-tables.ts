import type Database from 'better-sqlite3';
import type { StoredUsageRecord } from '../../core/ports/usage-store.js';
import { recordOf, type UsageRow } from '../usage-rows.js';

/** One row of a table as SQLite holds it, by column name. */
export type ExportedRow = Record<string, unknown>;

/** A run's log with its tool calls and the usage record it belongs to (undefined when that record is gone). */
export interface ExportedRunLog {
  record: StoredUsageRecord | undefined;
  at: number;
  platform: string;
  key: string;
  userId: string | null;
  question: string;
  answer: string | null;
  /** The steps as JSON text. */
  steps: string;
  tools: { at: number; tool: string; ok: boolean; ms: number }[];
}

/** A web chat with the runs it shows, oldest first. */
export interface ExportedWebChat {
  key: string;
  owner: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  runs: { runId: string; run: string; createdAt: number }[];
}

/** Every table in the file (shadow and internal ones included), by name. */
export const tableNames = (db: Database.Database): string[] =>
  db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((r) => r.name);

/** How many rows `table` holds (`table` is one of {@link tableNames}). */
export const rowCount = (db: Database.Database, table: string): number =>
  db.prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM "${table}"`).get()?.n ?? 0;

/** The rows of `table` in rowid order, `batch` at a time; none when the file has no such table. */
export function* rowBatches(db: Database.Database, table: string, batch: number): Iterable<ExportedRow[]> {
  if (!tableNames(db).includes(table)) return;
  const page = db.prepare<[number, number], ExportedRow & { _rowid: number }>(
    `SELECT rowid AS _rowid, * FROM "${table}" WHERE rowid > ? ORDER BY rowid LIMIT ?`,
  );
  for (let after = 0; ; ) {
    const rows = page.all(after, batch);
    if (rows.length === 0) return;
    after = rows[rows.length - 1]!._rowid;
    yield rows.map(({ _rowid: _, ...row }) => row);
  }
}

/** Run logs in usage id order, `batch` at a time, each with its tool calls and usage record. */
export function* runLogBatches(db: Database.Database, batch: number): Iterable<ExportedRunLog[]> {
  if (!tableNames(db).includes('run_logs')) return;
  const page = db.prepare<
    [number, number],
    Omit<ExportedRunLog, 'record' | 'tools' | 'userId'> & { usage_id: number; user_id: string | null }
  >(
    `SELECT usage_id, at, platform, key, user_id, question, answer, steps FROM run_logs
      WHERE usage_id > ? ORDER BY usage_id LIMIT ?`,
  );
  const usage = db.prepare<[number], UsageRow>('SELECT * FROM usage WHERE id = ?');
  const tools = db.prepare<[number], { at: number; tool: string; ok: number; ms: number }>(
    'SELECT at, tool, ok, ms FROM run_log_tools WHERE usage_id = ? ORDER BY rowid',
  );
  for (let after = 0; ; ) {
    const rows = page.all(after, batch);
    if (rows.length === 0) return;
    after = rows[rows.length - 1]!.usage_id;
    yield rows.map(({ usage_id, user_id, ...log }) => {
      const row = usage.get(usage_id);
      return {
        ...log,
        userId: user_id,
        record: row && recordOf(row),
        tools: tools.all(usage_id).map((t) => ({ ...t, ok: t.ok === 1 })),
      };
    });
  }
}

/** Every web chat with its runs, by key. */
export function* webChats(db: Database.Database): Iterable<ExportedWebChat> {
  if (!tableNames(db).includes('web_chats')) return;
  const chats = db.prepare<[], Omit<ExportedWebChat, 'runs'>>(
    `SELECT key, owner, title, created_at AS createdAt, updated_at AS updatedAt FROM web_chats ORDER BY key`,
  );
  const runs = db.prepare<[string], ExportedWebChat['runs'][number]>(
    'SELECT run_id AS runId, run, created_at AS createdAt FROM web_chat_runs WHERE key = ? ORDER BY id',
  );
  for (const chat of chats.iterate()) yield { ...chat, runs: runs.all(chat.key) };
}
