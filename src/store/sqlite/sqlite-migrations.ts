import type Database from 'better-sqlite3';
import { CHANNEL_SETTINGS, CONVERSATIONS, TURNS } from '../schema/memory-tables.js';
import { migration, renderMigrations } from '../schema/render-migrations.js';
import { ADD_CACHED_TOKENS, SHARED_MIGRATIONS } from '../schema/shared-migrations.js';
import { FEEDBACK, USAGE } from '../schema/usage-tables.js';

/**
 * Schema versions in order; migration N brings `PRAGMA user_version` from N-1 to N. Append only: a
 * released migration never changes, a new one is added after it.
 */
export const MIGRATIONS: readonly string[] = renderMigrations('sqlite', [
  migration(CONVERSATIONS, TURNS),
  migration(USAGE),
  migration(ADD_CACHED_TOKENS),
  migration(CHANNEL_SETTINGS),
  migration(FEEDBACK),
  ...SHARED_MIGRATIONS,
]);

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
