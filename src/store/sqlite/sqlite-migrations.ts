import type Database from 'better-sqlite3';
import { approvalWaitsMigration } from '../approval-wait-rows.js';
import { SQLITE_APPROVALS_MIGRATION } from './sqlite-approvals.js';
import { SQLITE_RUN_LOGS_MIGRATION } from './sqlite-run-logs.js';
import { SQLITE_SCHEDULES_MIGRATION } from './sqlite-schedules.js';

/**
 * Schema versions in order; migration N brings `PRAGMA user_version` from N-1 to N. Append only: a
 * released migration never changes, a new one is added after it.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE conversations (
    key TEXT PRIMARY KEY,
    summary TEXT,
    summary_tokens INTEGER NOT NULL DEFAULT 0,
    summarized_turns INTEGER NOT NULL DEFAULT 0,
    version INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL
  ) STRICT;
  CREATE TABLE turns (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL,
    author TEXT NOT NULL,
    question TEXT NOT NULL,
    answer TEXT NOT NULL,
    tokens INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX turns_by_key ON turns (key, id);
  `,
  `
  CREATE TABLE usage (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at INTEGER NOT NULL,
    platform TEXT NOT NULL,
    key TEXT NOT NULL,
    user_id TEXT,
    model TEXT NOT NULL,
    protocol TEXT NOT NULL,
    outcome TEXT NOT NULL
      CHECK (outcome IN ('pending', 'answered', 'failed', 'cancelled', 'refused', 'limited', 'summary')),
    model_calls INTEGER NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    tools TEXT NOT NULL,
    duration_ms INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX usage_by_at ON usage (at);
  CREATE INDEX usage_by_user ON usage (user_id, at);
  CREATE INDEX usage_by_key ON usage (key, at);
  `,
  `
  ALTER TABLE usage ADD COLUMN cached_tokens INTEGER NOT NULL DEFAULT 0;
  `,
  `
  CREATE TABLE channel_settings (
    key TEXT NOT NULL,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (key, name)
  ) STRICT;
  `,
  `
  CREATE TABLE feedback (
    platform TEXT NOT NULL,
    run_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    key TEXT NOT NULL,
    vote TEXT NOT NULL CHECK (vote IN ('up', 'down')),
    comment TEXT,
    at INTEGER NOT NULL,
    PRIMARY KEY (platform, run_id, user_id)
  ) STRICT;
  CREATE INDEX feedback_by_at ON feedback (at);
  `,
  // 6: people are principals (platform:id), so an ID claimed on one surface never counts for another;
  // a web client's address is counted too (origin).
  `
  ALTER TABLE usage ADD COLUMN origin TEXT;
  CREATE INDEX usage_by_origin ON usage (origin, at);
  UPDATE usage SET user_id = platform || ':' || user_id WHERE user_id IS NOT NULL AND instr(user_id, ':') = 0;
  UPDATE feedback SET user_id = platform || ':' || user_id WHERE instr(user_id, ':') = 0;
  `,
  // 7: recall. Every turn is archived when stored (never only when folded: a crash loses nothing), searched
  // with FTS5's trigram tokenizer: it finds code identifiers and error codes inside longer words
  // (`CONNRESET` in `ECONNRESET`, `parse_config` in `parse_config_v2`) and word forms by their shared stem,
  // at about three times the index size of unicode61 (see README: Recall). Turns already verbatim are
  // archived now; those folded before this version live on only in the summary. Notes: per channel
  // (subject NULL) or per person (subject = their principal).
  `
  ALTER TABLE turns ADD COLUMN principal TEXT;
  CREATE TABLE archive (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    author TEXT NOT NULL,
    principal TEXT,
    question TEXT NOT NULL,
    answer TEXT NOT NULL,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX archive_by_key ON archive (key, id);
  CREATE INDEX archive_by_principal ON archive (principal, key);
  CREATE INDEX archive_by_time ON archive (created_at);
  CREATE VIRTUAL TABLE archive_fts USING fts5(
    author, question, answer, content = 'archive', content_rowid = 'id', tokenize = 'trigram remove_diacritics 1'
  );
  CREATE TRIGGER archive_fts_insert AFTER INSERT ON archive BEGIN
    INSERT INTO archive_fts (rowid, author, question, answer) VALUES (new.id, new.author, new.question, new.answer);
  END;
  CREATE TRIGGER archive_fts_delete AFTER DELETE ON archive BEGIN
    INSERT INTO archive_fts (archive_fts, rowid, author, question, answer)
    VALUES ('delete', old.id, old.author, old.question, old.answer);
  END;
  INSERT INTO archive (id, key, author, principal, question, answer, created_at)
    SELECT id, key, author, NULL, question, answer, created_at FROM turns;
  CREATE TABLE notes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL,
    subject TEXT,
    text TEXT NOT NULL,
    author TEXT,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX notes_by_key ON notes (key, id);
  CREATE INDEX notes_by_subject ON notes (subject, id);
  CREATE INDEX notes_by_author ON notes (author, key);
  `,
  `
  CREATE TABLE web_chats (
    key TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    title TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX web_chats_by_owner ON web_chats (owner, updated_at);
  CREATE TABLE web_chat_runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL,
    run_id TEXT NOT NULL,
    run TEXT NOT NULL,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX web_chat_runs_by_key ON web_chat_runs (key, id);
  `,
  // 9: schedules (see sqlite-schedules.ts).
  SQLITE_SCHEDULES_MIGRATION,
  // 10: run logs for the admin page (see sqlite-run-logs.ts).
  SQLITE_RUN_LOGS_MIGRATION,
  // 11: tool-call approvals and per-channel grants (see sqlite-approvals.ts).
  SQLITE_APPROVALS_MIGRATION,
  // 12: tool calls waiting for a person, resumable after a restart (see approval-wait-rows.ts).
  approvalWaitsMigration('sqlite'),
];

/** Brings the schema up to date in one write transaction; returns the version it started from. */
export function migrate(db: Database.Database): number {
  const run = db.transaction(() => {
    const from = db.pragma('user_version', { simple: true }) as number;
    if (from > MIGRATIONS.length) {
      throw new Error(
        `schema version ${from} is newer than this build understands (${MIGRATIONS.length}); upgrade thinkthread`,
      );
    }
    for (let version = from; version < MIGRATIONS.length; version++) db.exec(MIGRATIONS[version]!);
    // Written even when nothing changed: it proves at startup that the file is writable.
    db.pragma(`user_version = ${MIGRATIONS.length}`);
    return from;
  });
  // IMMEDIATE takes the write lock up front, so two processes starting together migrate one after the other.
  return run.immediate();
}
