import type { PoolClient } from 'pg';
import { StorageError } from '../../core/errors.js';
import { CHANNEL_SETTINGS, CONVERSATIONS, TURNS } from '../schema/memory-tables.js';
import { migration, renderMigrations } from '../schema/render-migrations.js';
import { RUN_DELIVERIES, RUN_INBOX } from '../schema/run-queue-tables.js';
import { ADD_CACHED_TOKENS, SHARED_MIGRATIONS } from '../schema/shared-migrations.js';
import { FEEDBACK, USAGE } from '../schema/usage-tables.js';
import { openPostgresDb, type PostgresDb, type PostgresOptions } from './postgres-db.js';
import type { PostgresTarget } from './postgres-url.js';

/**
 * Schema versions in order; migration N is recorded as version N in `schema_migrations`. Append only: a
 * released migration never changes, a new one is added after it. Times are ms since the epoch (BIGINT).
 */
export const PG_MIGRATIONS: readonly string[] = renderMigrations('postgres', [
  migration(CONVERSATIONS, TURNS, USAGE),
  migration(ADD_CACHED_TOKENS),
  migration(CHANNEL_SETTINGS),
  migration(FEEDBACK),
  // 5: the line of questions shared by replicas.
  migration(RUN_DELIVERIES, RUN_INBOX),
  ...SHARED_MIGRATIONS,
]);

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
