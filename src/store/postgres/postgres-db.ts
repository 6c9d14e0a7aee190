import pg from 'pg';
import { StorageError, StorageLostError } from '../../core/errors.js';
import { connectionOf, type PostgresTarget } from './postgres-url.js';

/** How the pool behind a Postgres store is sized and bounded in time. */
export interface PostgresOptions {
  /** Connections at most (DATABASE_POOL_SIZE); callers beyond it wait up to `connectTimeoutMs`. */
  poolSize?: number;
  /** Longest wait for a new connection, or for a free one when the pool is exhausted. */
  connectTimeoutMs?: number;
  /** Longest any statement may run (server side), lock waits included. */
  statementTimeoutMs?: number;
  /** Shown in pg_stat_activity; default `thinkthread`. */
  applicationName?: string;
}

/** Runs statements on one connection. */
export type Sql = <R extends pg.QueryResultRow = pg.QueryResultRow>(
  text: string,
  params?: unknown[],
) => Promise<pg.QueryResult<R>>;

/** A bounded pool on one database whose every failure is a StorageError naming the database, never the password. */
export interface PostgresDb {
  readonly target: PostgresTarget;
  /** One statement on any free connection. */
  query: <R extends pg.QueryResultRow = pg.QueryResultRow>(
    what: string,
    text: string,
    params?: unknown[],
  ) => Promise<pg.QueryResult<R>>;
  /**
   * `work` in one transaction on one connection: committed when it resolves, rolled back when it throws (a
   * Rollback resolves with its value). A deadlock or serialization failure is retried, twice at most.
   */
  transaction<T>(what: string, work: (sql: Sql) => Promise<T>, mode?: 'read'): Promise<T>;
  /** A connection for work that manages its own transaction (migrations); its errors are not wrapped. */
  withClient<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  /** Why `err` happened, in a few words, without the password. */
  explain(err: unknown): string;

  /** Ends the pool; later calls reject with a StorageError. Closing twice is harmless. */
  close(): Promise<void>;
}

/** Thrown by a transaction's work to roll it back and resolve with `value` (e.g. a stale compaction's false). */
export class Rollback<T> extends Error {
  constructor(readonly value: T) {
    super('rolled back');
  }
}

const DEFAULTS = { poolSize: 10, connectTimeoutMs: 5000, statementTimeoutMs: 10_000 };
const RETRIED = new Set(['40P01', '40001']);
// undefined_table, invalid_schema_name: the schema was dropped (or emptied) under the running bot.
const GONE = new Set(['42P01', '3F000']);
const ATTEMPTS = 3;
const INT8_OID = 20;
const NUMERIC_OID = 1700;

// Ids, times and sums fit easily in a double: read BIGINT and NUMERIC as numbers, for this pool only.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID || oid === NUMERIC_OID
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Opens a pool on `target` (no connection is made until the first call). */
export function openPostgresDb(target: PostgresTarget, options: PostgresOptions = {}): PostgresDb {
  const { poolSize, connectTimeoutMs, statementTimeoutMs } = { ...DEFAULTS, ...options };
  const pool = new pg.Pool({
    ...connectionOf(target),
    max: poolSize,
    connectionTimeoutMillis: connectTimeoutMs,
    statement_timeout: statementTimeoutMs,
    // A guard for a server that stops answering without closing the socket (the statement timeout needs it alive).
    query_timeout: statementTimeoutMs + connectTimeoutMs,
    // A transaction left open by a stuck caller must not hold row or advisory locks for long.
    idle_in_transaction_session_timeout: statementTimeoutMs,
    keepAlive: true,
    application_name: options.applicationName ?? 'thinkthread',
    options: target.schema === 'public' ? undefined : `-c search_path=${target.schema}`,
    types,
  });
  // An idle connection the server dropped is discarded by the pool, and the next call opens a new one.
  pool.on('error', () => undefined);
  // A checked-out connection that breaks fails its next statement instead of crashing the process.
  pool.on('connect', (client) => client.on('error', () => undefined));
  let closed = false;

  const reasonOf = (err: unknown): string => {
    const message = messageOf(err);
    if (codeOf(err) === '57014' && /statement timeout/.test(message)) {
      return `a statement ran longer than ${statementTimeoutMs} ms (statement timeout)`;
    }
    if (message === 'timeout exceeded when trying to connect') {
      return pool.totalCount >= poolSize
        ? `all ${poolSize} connections (DATABASE_POOL_SIZE) stayed busy for ${connectTimeoutMs} ms`
        : `no connection within ${connectTimeoutMs} ms`;
    }
    return message;
  };
  const fail = (what: string, err: unknown): StorageError => {
    if (err instanceof StorageError) return err;
    if (!closed && GONE.has(codeOf(err))) {
      return new StorageLostError(
        `Could not ${what}: the tables of the ${target.describe} are gone (was the schema dropped?); ` +
          'thinkthread must restart to create them again',
        err,
      );
    }
    const reason = closed ? 'the store is closed' : reasonOf(err);
    const message = `Could not ${what} in the ${target.describe}: ${reason}`;
    return new StorageError(scrub(message, target.password), err);
  };
  const checkOpen = () => {
    if (closed) throw new StorageError(`The store on the ${target.describe} is closed`);
  };
  const connect = async () => {
    checkOpen();
    return pool.connect();
  };

  const transaction = async <T>(what: string, work: (sql: Sql) => Promise<T>, mode?: 'read') => {
    for (let attempt = 1; ; attempt++) {
      let client: pg.PoolClient | undefined;
      let broken: Error | undefined;
      try {
        client = await connect();
        const c = client;
        await c.query(mode === 'read' ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN');
        const result = await work((text, params) => c.query(text, params));
        await c.query('COMMIT');
        return result;
      } catch (err) {
        if (client)
          broken = await client.query('ROLLBACK').then(
            () => undefined,
            (e: Error) => e,
          );
        if (err instanceof Rollback) return err.value as T;
        if (!broken && attempt < ATTEMPTS && RETRIED.has(codeOf(err))) continue;
        throw fail(what, err);
      } finally {
        client?.release(broken ?? false);
      }
    }
  };

  return {
    target,
    async query(what, text, params) {
      try {
        checkOpen();
        return await pool.query(text, params);
      } catch (err) {
        throw fail(what, err);
      }
    },
    transaction,
    async withClient(work) {
      const client = await connect();
      let broken: Error | undefined;
      try {
        return await work(client);
      } catch (err) {
        broken = err instanceof Error ? err : new Error(String(err));
        throw err;
      } finally {
        client.release(broken ?? false);
      }
    },
    explain: (err) => scrub(reasonOf(err), target.password),
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/** The message of `err`; for a failed connection to several addresses, the first one's. */
function messageOf(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length > 0) return messageOf(err.errors[0]);
  return (err instanceof Error ? err.message : String(err)) || codeOf(err) || 'unknown error';
}

const codeOf = (err: unknown): string => String((err as { code?: unknown } | undefined)?.code ?? '');

/** `message` with every occurrence of `secret` masked. */
function scrub(message: string, secret: string | undefined): string {
  return secret ? message.split(secret).join('***') : message;
}
