import type { PoolClient } from 'pg';
import { StorageError } from '../../core/errors.js';
import { approvalWaitsMigration } from '../approval-wait-rows.js';
import { PG_APPROVALS_MIGRATION } from './postgres-approvals.js';
import { openPostgresDb, type PostgresDb, type PostgresOptions } from './postgres-db.js';
import { PG_RUN_LOGS_MIGRATION } from './postgres-run-logs.js';
import { PG_SCHEDULES_MIGRATION } from './postgres-schedules.js';
import type { PostgresTarget } from './postgres-url.js';

/**
 * Schema versions in order; migration N is recorded as version N in `schema_migrations`. Append only: a
 * released migration never changes, a new one is added after it. Times are ms since the epoch (BIGINT).
 */
export const PG_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE conversations (
    key TEXT PRIMARY KEY,
    summary TEXT,
    summary_tokens INTEGER NOT NULL DEFAULT 0,
    summarized_turns INTEGER NOT NULL DEFAULT 0,
    version INTEGER NOT NULL DEFAULT 0,
    updated_at BIGINT NOT NULL
  );
  CREATE TABLE turns (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key TEXT NOT NULL,
    author TEXT NOT NULL,
    question TEXT NOT NULL,
    answer TEXT NOT NULL,
    tokens INTEGER NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX turns_by_key ON turns (key, id);
  CREATE TABLE usage (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at BIGINT NOT NULL,
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
    tools JSONB NOT NULL,
    duration_ms INTEGER NOT NULL,
    -- Set only on records copied by npm run migrate: the source record's identity, so a copy is made once.
    imported_from TEXT UNIQUE
  );
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
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (key, name)
  );
  `,
  `
  CREATE TABLE feedback (
    platform TEXT NOT NULL,
    run_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    key TEXT NOT NULL,
    vote TEXT NOT NULL CHECK (vote IN ('up', 'down')),
    comment TEXT,
    at BIGINT NOT NULL,
    PRIMARY KEY (platform, run_id, user_id)
  );
  CREATE INDEX feedback_by_at ON feedback (at);
  `,
  // 5: the line of questions shared by replicas. A delivery id is admitted once (Slack retries); each
  // question waits in run_inbox, in id order per key, until it has run; `owner` is the replica's liveness lock.
  `
  CREATE TABLE run_deliveries (
    delivery TEXT PRIMARY KEY,
    seen_at BIGINT NOT NULL
  );
  CREATE INDEX run_deliveries_by_seen ON run_deliveries (seen_at);
  CREATE TABLE run_inbox (
    id BIGSERIAL PRIMARY KEY,
    key TEXT NOT NULL,
    platform TEXT NOT NULL,
    owner INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'waiting',
    placeholder JSONB,
    arrived_at BIGINT NOT NULL
  );
  CREATE INDEX run_inbox_by_key ON run_inbox (key, id);
  CREATE INDEX run_inbox_by_owner ON run_inbox (owner);
  `,
  // 6: people are principals (platform:id), so an ID claimed on one surface never counts for another;
  // a web client's address is counted too (origin).
  `
  ALTER TABLE usage ADD COLUMN origin TEXT;
  CREATE INDEX usage_by_origin ON usage (origin, at);
  UPDATE usage SET user_id = platform || ':' || user_id WHERE user_id IS NOT NULL AND strpos(user_id, ':') = 0;
  UPDATE feedback SET user_id = platform || ':' || user_id WHERE strpos(user_id, ':') = 0;
  `,
  // 7: recall. Every turn is archived when stored (a crash before folding loses nothing) and searched with
  // a tsvector (english: stems word forms) under a GIN index. pg_trgm, where it can be installed (it needs
  // CREATE on the database; managed services mostly allow it), adds a trigram index so ids and error codes
  // are also found inside longer words; without it, recall works on whole words only. Turns still verbatim
  // are archived now. Notes: per channel (subject NULL) or per person (subject = their principal).
  `
  ALTER TABLE turns ADD COLUMN principal TEXT;
  CREATE TABLE archive (
    id BIGINT PRIMARY KEY,
    key TEXT NOT NULL,
    author TEXT NOT NULL,
    principal TEXT,
    question TEXT NOT NULL,
    answer TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    search tsvector GENERATED ALWAYS AS (
      to_tsvector('english', question || ' ' || answer) || setweight(to_tsvector('simple', author), 'D')
    ) STORED
  );
  CREATE INDEX archive_search ON archive USING gin (search);
  CREATE INDEX archive_by_key ON archive (key, id);
  CREATE INDEX archive_by_principal ON archive (principal, key);
  CREATE INDEX archive_by_time ON archive (created_at);
  INSERT INTO archive (id, key, author, principal, question, answer, created_at)
    SELECT id, key, author, NULL, question, answer, created_at FROM turns;
  CREATE TABLE notes (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key TEXT NOT NULL,
    subject TEXT,
    text TEXT NOT NULL,
    author TEXT,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX notes_by_key ON notes (key, id);
  CREATE INDEX notes_by_subject ON notes (subject, id);
  CREATE INDEX notes_by_author ON notes (author, key);
  DO $$
  DECLARE ns TEXT;
  BEGIN
    BEGIN
      CREATE EXTENSION IF NOT EXISTS pg_trgm;
    EXCEPTION WHEN OTHERS THEN
      RAISE NOTICE 'pg_trgm is not available (%); recall matches whole words only', SQLERRM;
    END;
    SELECT n.nspname INTO ns FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
     WHERE e.extname = 'pg_trgm';
    IF ns IS NOT NULL THEN
      EXECUTE format('CREATE INDEX archive_trgm ON archive USING gin ((question || %L || answer) %I.gin_trgm_ops)', ' ', ns);
    END IF;
  END $$;
  `,
  `
  CREATE TABLE web_chats (
    key TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    title TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  CREATE INDEX web_chats_by_owner ON web_chats (owner, updated_at);
  CREATE TABLE web_chat_runs (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key TEXT NOT NULL,
    run_id TEXT NOT NULL,
    run TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX web_chat_runs_by_key ON web_chat_runs (key, id);
  `,
  // 9: schedules (see postgres-schedules.ts).
  PG_SCHEDULES_MIGRATION,
  // 10: run logs for the admin page (see postgres-run-logs.ts).
  PG_RUN_LOGS_MIGRATION,
  // 11: tool-call approvals and per-channel grants (see postgres-approvals.ts).
  PG_APPROVALS_MIGRATION,
  // 12: tool calls waiting for a person, resumable after a restart (see approval-wait-rows.ts).
  approvalWaitsMigration('postgres'),
];

/**
 * Brings `schema` up to date in one transaction on `client`. A transaction-scoped advisory lock (keyed by
 * the schema) makes replicas that start together migrate one after the other: the later ones find the
 * versions recorded and apply nothing. Returns the version it started from.
 */
export async function migratePostgres(client: PoolClient, schema: string): Promise<number> {
  await client.query('BEGIN');
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended('thinkthread:migrate:' || $1, 0))", [
      schema,
    ]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS "${schema}".schema_migrations (
         version INTEGER PRIMARY KEY,
         applied_at BIGINT NOT NULL
       )`,
    );
    const { rows } = await client.query<{ v: number | null }>(
      `SELECT MAX(version) AS v FROM "${schema}".schema_migrations`,
    );
    const from = rows[0]?.v ?? 0;
    if (from > PG_MIGRATIONS.length) {
      throw new Error(
        `schema version ${from} is newer than this build understands (${PG_MIGRATIONS.length}); upgrade thinkthread`,
      );
    }
    await client.query(`SET LOCAL search_path TO "${schema}"`);
    for (let version = from + 1; version <= PG_MIGRATIONS.length; version++) {
      await client.query(PG_MIGRATIONS[version - 1]!);
      await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [
        version,
        Date.now(),
      ]);
    }
    await client.query('COMMIT');
    return from;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/**
 * Opens a pool on `target` and migrates its schema; rejects with a StorageError naming the host, port and
 * database (never the password) when that fails.
 */
export async function openMigratedDb(
  target: PostgresTarget,
  options: PostgresOptions = {},
): Promise<PostgresDb> {
  const db = openPostgresDb(target, options);
  try {
    await db.withClient((client) => migratePostgres(client, target.schema));
    return db;
  } catch (err) {
    await db.close();
    throw new StorageError(
      `Cannot open the ${target.describe}: ${db.explain(err)}. Check that Postgres runs there and the URL is right.`,
      err,
    );
  }
}
