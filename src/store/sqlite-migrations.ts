import type Database from 'better-sqlite3';

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
