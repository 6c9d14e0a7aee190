import { chmodSync, closeSync, constants, existsSync, fchmodSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { StorageError } from '../../core/errors.js';
import type {
  Compaction,
  ConversationSnapshot,
  ConversationStore,
  NewTurn,
  StoredTurn,
  TurnWindow,
} from '../../core/ports/conversation-store.js';
import type { Store } from '../../core/ports/store.js';
import { guardFile } from './guard-file.js';
import { sqliteAppSecrets } from './sqlite-app-secrets.js';
import { sqliteApprovalWaits } from './sqlite-approval-waits.js';
import { sqliteApprovals } from './sqlite-approvals.js';
import { sqliteArchive } from './sqlite-archive.js';
import { sqliteArchiveEmbeddings } from './sqlite-archive-embeddings.js';
import { sqliteFeedback } from './sqlite-feedback.js';
import { sqliteFollows } from './sqlite-follows.js';
import { sqliteForget } from './sqlite-forget.js';
import { sqliteKnowledge } from './sqlite-knowledge.js';
import { migrate } from './sqlite-migrations.js';
import { SQLITE_MEMORY_PATH } from './sqlite-paths.js';
import { sqliteRunLogs } from './sqlite-run-logs.js';
import { sqliteSchedules } from './sqlite-schedules.js';
import { sqliteSettings } from './sqlite-settings.js';
import { sqliteUsage } from './sqlite-usage.js';
import { sqliteWebChats } from './sqlite-web-chats.js';
import { sqliteWebSessions } from './sqlite-web-sessions.js';

interface ConversationRow {
  summary: string | null;
  summary_tokens: number;
  summarized_turns: number;
  version: number;
}

/** Thrown inside a transaction to roll it back when a compaction turns out to be stale. */
class StaleCompaction extends Error {}

/**
 * Opens (creating file, folder and schema if needed) a SQLite store of conversations, usage and channel
 * settings in WAL mode.
 * Every statement is prepared once; every method is one transaction, so a crash leaves each write whole or absent.
 */
export function openSqliteStore(path: string): Store {
  const db = open(path);
  const fail = (what: string, err: unknown) =>
    err instanceof StorageError
      ? err
      : new StorageError(`Could not ${what} in the database ${path}: ${messageOf(err)}`, err);

  const selectConversation = db.prepare<[string], ConversationRow>(
    'SELECT summary, summary_tokens, summarized_turns, version FROM conversations WHERE key = ?',
  );
  const selectTurns = db.prepare<[string], StoredTurn>(
    'SELECT id, author, question, answer, tokens, created_at AS createdAt FROM turns WHERE key = ? ORDER BY id',
  );
  // The oldest id a window admits, computed over ids and token counts only: no turn text is read for it.
  const selectWindowStart = db.prepare<[string, number, number], { first: number | null }>(
    `SELECT MIN(id) AS first FROM (
       SELECT id,
              SUM(tokens) OVER (ORDER BY id DESC ROWS UNBOUNDED PRECEDING) AS running,
              ROW_NUMBER() OVER (ORDER BY id DESC) AS rn
         FROM turns WHERE key = ?)
      WHERE rn <= ? OR running <= ?`,
  );
  const selectTurnsFrom = db.prepare<[string, number], StoredTurn>(
    'SELECT id, author, question, answer, tokens, created_at AS createdAt FROM turns WHERE key = ? AND id >= ? ORDER BY id',
  );
  const ensureConversation = db.prepare<[string, number]>(
    'INSERT INTO conversations (key, updated_at) VALUES (?, ?) ON CONFLICT (key) DO NOTHING',
  );
  const insertTurn = db.prepare<[string, string, string, string, number, number, string | null]>(
    'INSERT INTO turns (key, author, question, answer, tokens, created_at, principal) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const archiveTurn = db.prepare<[number, string, string, string | null, string, string, number]>(
    'INSERT INTO archive (id, key, author, principal, question, answer, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const deleteArchive = db.prepare<[string]>('DELETE FROM archive WHERE key = ?');
  const deleteChannelNotes = db.prepare<[string]>('DELETE FROM notes WHERE key = ? AND subject IS NULL');
  const deleteWebChatRuns = db.prepare<[string]>('DELETE FROM web_chat_runs WHERE key = ?');
  const updateSummary = db.prepare<[string, number, number, number, string, number]>(
    `UPDATE conversations
        SET summary = ?, summary_tokens = ?, summarized_turns = summarized_turns + ?,
            version = version + 1, updated_at = ?
      WHERE key = ? AND version = ?`,
  );
  const deleteTurnsThrough = db.prepare<[string, number]>('DELETE FROM turns WHERE key = ? AND id <= ?');
  const deleteTurns = db.prepare<[string]>('DELETE FROM turns WHERE key = ?');
  const clearConversation = db.prepare<[number, string]>(
    `UPDATE conversations
        SET summary = NULL, summary_tokens = 0, summarized_turns = 0, version = version + 1, updated_at = ?
      WHERE key = ?`,
  );

  const selectOne = db.prepare('SELECT 1');

  // A deferred read transaction sees one snapshot across both queries, even with writers in other processes.
  const windowed = (key: string, window: TurnWindow): StoredTurn[] => {
    const first = selectWindowStart.get(key, window.keep, window.maxTokens)?.first;
    return first == null ? [] : selectTurnsFrom.all(key, first);
  };
  const load = db.transaction((key: string, window?: TurnWindow): ConversationSnapshot => {
    const row = selectConversation.get(key);
    return {
      summary: row?.summary != null ? { text: row.summary, tokens: row.summary_tokens } : null,
      summarizedTurns: row?.summarized_turns ?? 0,
      version: row?.version ?? 0,
      turns: !row ? [] : window ? windowed(key, window) : selectTurns.all(key),
    };
  });
  const append = db.transaction((key: string, turn: NewTurn): StoredTurn => {
    const createdAt = Date.now();
    ensureConversation.run(key, createdAt);
    const { lastInsertRowid } = insertTurn.run(
      key,
      turn.author,
      turn.question,
      turn.answer,
      turn.tokens,
      createdAt,
      turn.principal ?? null,
    );
    const id = Number(lastInsertRowid);
    // Archived in the same transaction: the turn is searchable from now on, folded or not.
    archiveTurn.run(id, key, turn.author, turn.principal ?? null, turn.question, turn.answer, createdAt);
    return { ...turn, id, createdAt };
  });
  const compact = db.transaction((key: string, c: Compaction): void => {
    const now = Date.now();
    const updated = updateSummary.run(
      c.summary.text,
      c.summary.tokens,
      c.foldedTurns,
      now,
      key,
      c.expectedVersion,
    );
    if (updated.changes !== 1) throw new StaleCompaction();
    if (deleteTurnsThrough.run(key, c.throughId).changes !== c.foldedTurns) throw new StaleCompaction();
  });
  const reset = db.transaction((key: string): void => {
    deleteTurns.run(key);
    deleteArchive.run(key);
    deleteChannelNotes.run(key);
    deleteWebChatRuns.run(key);
    clearConversation.run(Date.now(), key);
  });

  const conversations: ConversationStore = {
    async load(key, window) {
      try {
        return load(key, window);
      } catch (err) {
        throw fail('read memory', err);
      }
    },
    async appendTurn(key, turn) {
      try {
        return append.immediate(key, turn);
      } catch (err) {
        throw fail('store a turn', err);
      }
    },
    async compact(key, compaction) {
      try {
        compact.immediate(key, compaction);
        return true;
      } catch (err) {
        if (err instanceof StaleCompaction) return false;
        throw fail('store a summary', err);
      }
    },
    async reset(key) {
      try {
        reset.immediate(key);
      } catch (err) {
        throw fail('reset memory', err);
      }
    },
    async ping() {
      try {
        selectOne.get();
      } catch (err) {
        throw fail('reach the store', err);
      }
    },
    async close() {
      if (db.open) db.close();
    },
  };
  const store: Store = {
    ...conversations,
    ...sqliteUsage(db, fail),
    ...sqliteSettings(db, fail),
    ...sqliteFeedback(db, fail),
    ...sqliteArchive(db, fail),
    ...sqliteArchiveEmbeddings(db, fail),
    ...sqliteForget(db, fail),
    ...sqliteWebChats(db, fail),
    ...sqliteWebSessions(db, fail),
    ...sqliteAppSecrets(db, fail),
    ...sqliteFollows(db, fail),
    ...sqliteKnowledge(db, fail),
    ...sqliteSchedules(db, fail),
    ...sqliteRunLogs(db, fail),
    ...sqliteApprovals(db, fail),
    ...sqliteApprovalWaits(db, fail),
  };
  return path === SQLITE_MEMORY_PATH ? store : guardFile(path, store);
}

/** Conversations are private: the database file (and its -wal and -shm, which SQLite gives the same mode). */
const FILE_MODE = 0o600;
/** A folder the store creates for its file. */
const FOLDER_MODE = 0o700;

function open(path: string): Database.Database {
  if (path !== SQLITE_MEMORY_PATH) {
    try {
      createPrivateFolders(dirname(path));
    } catch (err) {
      throw new StorageError(
        `Cannot create the folder of the database ${path}: ${messageOf(err)}. The path is not usable; ` +
          'set DATABASE_URL to a file in a folder this user may write.',
        err,
      );
    }
    createPrivateFile(path);
  }
  let db: Database.Database | undefined;
  try {
    db = new Database(path);
    db.pragma('journal_mode = WAL');
    // With WAL, NORMAL survives a process crash (only an OS crash can drop the last commits).
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    migrate(db);
    return db;
  } catch (err) {
    db?.close();
    throw new StorageError(
      `Cannot open the database ${path}: ${messageOf(err)}. Check that it is a writable SQLite file (DATABASE_URL).`,
      err,
    );
  }
}

/**
 * Creates the missing folders of `folder`, one by one, each 0700 whatever the umask. (Node's recursive mkdir
 * loops forever on some paths, e.g. under /proc.)
 */
function createPrivateFolders(folder: string): void {
  const missing: string[] = [];
  for (let at = folder; !existsSync(at); at = dirname(at)) {
    if (dirname(at) === at) break;
    missing.unshift(at);
  }
  for (const dir of missing) {
    mkdirSync(dir, { mode: FOLDER_MODE });
    chmodSync(dir, FOLDER_MODE);
  }
}

/** Creates the database file 0600 whatever the umask; an existing file is left as it is. */
function createPrivateFile(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, FILE_MODE);
  } catch {
    return; // it exists, or SQLite will say why it cannot open it
  }
  try {
    fchmodSync(fd, FILE_MODE);
  } finally {
    closeSync(fd);
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
