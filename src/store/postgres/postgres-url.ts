import { ConfigError } from '../../core/errors.js';

/** How to reach one Postgres database, parsed from a `postgres://` URL. */
export interface PostgresTarget {
  host: string;
  port: number;
  database: string;
  user: string;
  /** Never put into a message: `describe` and every error name the host and database only. */
  password: string | undefined;
  /** `false` (no TLS), or TLS with the server certificate verified or not. */
  ssl: false | { rejectUnauthorized: boolean };
  /** The schema holding thinkthread's tables (created if missing); `public` unless `?schema=` names one. */
  schema: string;
  /** `database test at 127.0.0.1:5432`: for messages and logs. */
  describe: string;
}

/** What node-postgres needs to connect to `target` (pool or client). */
export function connectionOf(target: PostgresTarget) {
  const { host, port, database, user, password, ssl } = target;
  return { host, port, database, user, password, ssl };
}

const SCHEMES = new Set(['postgres', 'postgresql']);
const SSL_MODES: Record<string, PostgresTarget['ssl']> = {
  disable: false,
  // As in libpq: `require` encrypts without checking the certificate; the verify modes check it.
  require: { rejectUnauthorized: false },
  'verify-ca': { rejectUnauthorized: true },
  'verify-full': { rejectUnauthorized: true },
};
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const FORM = 'postgres://user:password@host:5432/database[?sslmode=require&schema=name]';

/** True when `url` names a Postgres database (`postgres://` or `postgresql://`). */
export function isPostgresUrl(url: string): boolean {
  return /^\s*postgres(?:ql)?:\/\//i.test(url);
}

/**
 * Parses a `postgres://` or `postgresql://` URL. Query parameters: `sslmode` (disable, require, verify-ca,
 * verify-full) and `schema` (lower-case identifier). Errors name the problem, never the URL (it has a password).
 */
export function parsePostgresUrl(raw: string, setting = 'DATABASE_URL'): PostgresTarget {
  const fail = (problem: string): never => {
    throw new ConfigError([`${setting}: ${problem}; expected ${FORM}.`]);
  };
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return fail('is not a valid postgres:// URL');
  }
  if (!SCHEMES.has(url.protocol.slice(0, -1).toLowerCase())) fail('is not a postgres:// URL');
  const host = decodeURIComponent(url.hostname).replace(/^\[(.*)\]$/, '$1');
  if (!host) fail('names no host');
  const port = url.port ? Number(url.port) : 5432;
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!database || database.includes('/')) fail('names no database (the path after the host)');
  const user = decodeURIComponent(url.username);
  if (!user) fail('names no user');
  let ssl: PostgresTarget['ssl'] = false;
  let schema = 'public';
  for (const [name, value] of url.searchParams) {
    if (name === 'sslmode') {
      const mode = SSL_MODES[value];
      if (mode === undefined) fail(`sslmode must be one of ${Object.keys(SSL_MODES).join(', ')}`);
      ssl = mode ?? false;
    } else if (name === 'schema') {
      if (!SCHEMA_NAME.test(value)) fail('schema must be a lower-case identifier (letters, digits, _)');
      schema = value;
    } else {
      fail(`the parameter "${name.slice(0, 40)}" is not supported (only sslmode and schema are)`);
    }
  }
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const inSchema = schema === 'public' ? '' : `, schema ${schema}`;
  return {
    host,
    port,
    database,
    user,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    ssl,
    schema,
    describe: `Postgres database ${database} at ${where}${inSchema}`,
  };
}
