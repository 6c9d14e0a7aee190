import { isAbsolute, resolve } from 'node:path';
import { ConfigError } from '../core/errors.js';
import type { Store } from '../core/ports/store.js';
import type { PostgresOptions } from './postgres/postgres-db.js';
import { isPostgresUrl, parsePostgresUrl } from './postgres/postgres-url.js';
import { SQLITE_MEMORY_PATH } from './sqlite/sqlite-paths.js';

const SUPPORTED =
  'supported: sqlite:<path> (e.g. sqlite:./data/thinkthread.db, sqlite:/var/lib/thinkthread.db, sqlite::memory:) ' +
  'and postgres://user:password@host:5432/database';

/**
 * The SQLite file path a `sqlite:` URL names, resolved against `cwd`: `sqlite:./rel`, `sqlite:rel`,
 * `sqlite:/abs`, `sqlite:///abs`, or `sqlite::memory:`.
 */
export function sqlitePathOf(databaseUrl: string, cwd = process.cwd()): string {
  const url = databaseUrl.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme !== 'sqlite') {
    // Only the scheme is echoed: a Postgres URL carries a password.
    const named = scheme ? `"${scheme}:" is not supported` : 'has no scheme';
    throw new ConfigError([`DATABASE_URL: ${named}; ${SUPPORTED}.`]);
  }
  let path = url.slice('sqlite:'.length);
  if (path.startsWith('//')) path = path.slice(2);
  if (path === SQLITE_MEMORY_PATH) return path;
  if (path === '') throw new ConfigError([`DATABASE_URL: the sqlite: URL names no file; ${SUPPORTED}.`]);
  return isAbsolute(path) ? path : resolve(cwd, path);
}

/**
 * Opens the store (conversations and usage) `databaseUrl` names: SQLite, or Postgres with a pool of
 * `postgres.poolSize` connections. Throws a ConfigError for an unsupported scheme.
 */
export async function createStore(databaseUrl: string, postgres: PostgresOptions = {}): Promise<Store> {
  // Only the driver in use is loaded (pg and better-sqlite3 cost 10–15 MB each).
  if (isPostgresUrl(databaseUrl)) {
    const { openPostgresStore } = await import('./postgres/postgres-store.js');
    return openPostgresStore(parsePostgresUrl(databaseUrl), postgres);
  }
  const { openSqliteStore } = await import('./sqlite/sqlite-store.js');
  return openSqliteStore(sqlitePathOf(databaseUrl));
}
