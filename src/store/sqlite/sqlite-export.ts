import Database from 'better-sqlite3';
import { StorageError } from '../../core/errors.js';
import type { ArchivedTurn } from '../../core/ports/archive-store.js';
import type { StoredTurn } from '../../core/ports/conversation-store.js';
import type { StoredNote } from '../../core/ports/notes-store.js';
import type { Schedule } from '../../core/ports/schedule-store.js';
import type { StoredUsageRecord } from '../../core/ports/usage-store.js';
import { type ScheduleRow, scheduleOf } from '../schedule-rows.js';
import { recordOf, type UsageRow } from '../usage-rows.js';
import {
  type ExportedRow,
  type ExportedRunLog,
  type ExportedWebChat,
  rowBatches,
  rowCount,
  runLogBatches,
  tableNames,
  webChats,
} from './sqlite-export-tables.js';
import { MIGRATIONS } from './sqlite-migrations.js';

/**
 * One conversation as SQLite stores it: its summary, counters and turns (oldest first). A key with archived
 * turns or notes but no conversation row (its memory was reset or forgotten) comes with `stored` false.
 */
export interface ExportedConversation {
  key: string;
  stored: boolean;
  summary: string | null;
  summaryTokens: number;
  summarizedTurns: number;
  version: number;
  updatedAt: number;
  turns: (StoredTurn & { principal?: string | null })[];
  /** Every turn it ever had (schema 7 on; before it, its verbatim turns), oldest first. */
  archive: ArchivedTurn[];
  /** The notes made in it: the channel's, and people's own notes made there. */
  notes: StoredNote[];
}

/** A read-only view of a SQLite store, read in one snapshot until it is closed. */
export interface SqliteExport {
  conversations(): Iterable<ExportedConversation>;
  /** Usage records in id order, `batch` at a time. */
  usage(batch: number): Iterable<StoredUsageRecord[]>;
  /** Every schedule (schema 9 on), unclaimed. */
  schedules(): Schedule[];
  /** Run logs with their tool calls, `batch` at a time. */
  runLogs(batch: number): Iterable<ExportedRunLog[]>;
  webChats(): Iterable<ExportedWebChat>;
  /** Every table in the file, SQLite's own and full-text shadow tables included. */
  tables(): string[];
  count(table: string): number;
  /** Any table's rows as they are, `batch` at a time; none when the file has no such table. */
  rows(table: string, batch: number): Iterable<ExportedRow[]>;
  close(): void;
}

/**
 * Opens the SQLite store at `path` read-only (it must exist and be a thinkthread database of a version this
 * build knows) and starts one read transaction, so a bot still writing to it cannot tear the copy.
 */
export function openSqliteExport(path: string): SqliteExport {
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new StorageError(`Cannot open the SQLite database ${path}: ${(err as Error).message}`, err);
  }
  try {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version < 1 || version > MIGRATIONS.length) {
      throw new Error(
        version < 1
          ? 'it is not a thinkthread database'
          : `its schema version ${version} is newer than this build`,
      );
    }
    db.exec('BEGIN');
    const hasUsage = version >= 2;
    const hasArchive = version >= 7;
    const hasSchedules = version >= 9;
    // Migration 15: notes say whether they are instructions and whether they stay where they were made.
    const noteKinds = version >= 15 ? 'instruction, local' : '0 AS instruction, 0 AS local';
    const selectConversations = db.prepare<
      [],
      Pick<ExportedConversation, 'key' | 'summary' | 'version'> & {
        stored: number;
        summary_tokens: number;
        summarized_turns: number;
        updated_at: number;
      }
    >(
      `SELECT k.key, c.key IS NOT NULL AS stored, c.summary, COALESCE(c.summary_tokens, 0) AS summary_tokens,
              COALESCE(c.summarized_turns, 0) AS summarized_turns, COALESCE(c.version, 0) AS version,
              COALESCE(c.updated_at, 0) AS updated_at
         FROM (SELECT key FROM conversations UNION SELECT key FROM turns
               ${hasArchive ? 'UNION SELECT key FROM archive UNION SELECT key FROM notes' : ''}) k
         LEFT JOIN conversations c ON c.key = k.key
        ORDER BY k.key`,
    );
    const selectTurns = db.prepare<[string], StoredTurn>(
      `SELECT id, author, question, answer, tokens, created_at AS createdAt${hasArchive ? ', principal' : ''}
         FROM turns WHERE key = ? ORDER BY id`,
    );
    const selectArchive = hasArchive
      ? db.prepare<[string], ArchivedTurn>(
          `SELECT id, key, author, principal, question, answer, created_at AS createdAt
             FROM archive WHERE key = ? ORDER BY id`,
        )
      : undefined;
    const selectNotes = hasArchive
      ? db.prepare<
          [string],
          Omit<StoredNote, 'instruction' | 'local'> & { instruction: number; local: number }
        >(
          `SELECT id, key, subject, text, author, created_at AS createdAt, ${noteKinds} FROM notes WHERE key = ? ORDER BY id`,
        )
      : undefined;
    const selectUsage = hasUsage
      ? db.prepare<[number, number], UsageRow>('SELECT * FROM usage WHERE id > ? ORDER BY id LIMIT ?')
      : undefined;
    return {
      *conversations() {
        for (const c of selectConversations.iterate()) {
          const turns = selectTurns.all(c.key);
          yield {
            key: c.key,
            stored: c.stored === 1,
            summary: c.summary,
            summaryTokens: c.summary_tokens,
            summarizedTurns: c.summarized_turns,
            version: c.version,
            updatedAt: c.updated_at,
            turns,
            archive:
              selectArchive?.all(c.key) ??
              turns.map((t) => ({
                id: t.id,
                key: c.key,
                author: t.author,
                principal: null,
                question: t.question,
                answer: t.answer,
                createdAt: t.createdAt,
              })),
            notes: (selectNotes?.all(c.key) ?? []).map((n) => ({
              ...n,
              instruction: n.instruction === 1,
              local: n.local === 1,
            })),
          };
        }
      },
      *usage(batch) {
        if (!selectUsage) return;
        for (let after = 0; ; ) {
          const rows = selectUsage.all(after, batch);
          if (rows.length === 0) return;
          yield rows.map(recordOf);
          after = rows[rows.length - 1]!.id;
        }
      },
      schedules: () =>
        hasSchedules
          ? db
              .prepare<[], ScheduleRow>('SELECT * FROM schedules ORDER BY created_at, id')
              .all()
              .map(scheduleOf)
          : [],
      runLogs: (batch) => runLogBatches(db, batch),
      webChats: () => webChats(db),
      tables: () => tableNames(db),
      count: (table) => rowCount(db, table),
      rows: (table, batch) => rowBatches(db, table, batch),
      close() {
        if (db.inTransaction) db.exec('COMMIT');
        db.close();
      },
    };
  } catch (err) {
    db.close();
    throw new StorageError(`Cannot read the SQLite database ${path}: ${(err as Error).message}`, err);
  }
}
