import { createHash } from 'node:crypto';
import pg from 'pg';
import { StorageError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { connectionOf, type PostgresTarget } from './postgres-url.js';

/** The NOTIFY channel every replica listens on; payloads start with the schema, so schemas never mix. */
export const RUNS_CHANNEL = 'thinkthread_runs';

const RECONNECT_MS = [250, 500, 1000, 2000, 5000];
const STATEMENT_TIMEOUT_MS = 10_000;

/**
 * One connection held for the life of a replica: its session advisory locks (liveness, channels, Discord
 * shards) live exactly as long as it does, so Postgres frees them when the replica dies, and it LISTENs for
 * the other replicas' notifications. It reconnects by itself; each connection gets a new `owner` number.
 */
export interface PostgresSession {
  /** This connection's liveness lock number (the `owner` of rows it queues); changes on reconnect. */
  readonly owner: number;
  /** Whether the connection is up right now. */
  readonly up: boolean;
  /** One statement on the held connection; rejects with a StorageError while it is down. */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    what: string,
    text: string,
    params?: unknown[],
  ): Promise<pg.QueryResult<R>>;
  /** Called with each RUNS_CHANNEL payload of this schema (the schema prefix removed). */
  onNotify(handler: (payload: string) => void): void;
  /** Called when the connection (and with it every lock it held) is lost. */
  onLost(handler: () => void): void;
  /** Called after each connection is up, its liveness lock held and LISTEN on. */
  onUp(handler: () => void): void;
  /** Closes the connection for good, releasing its locks. */
  close(): Promise<void>;
}

/** The two 32-bit keys of a session advisory lock named by `name` within `schema`: (namespace, key). */
export function lockKeys(schema: string, namespace: string, name: string): [number, number] {
  return [positive32(`thinkthread:${schema}:${namespace}`), positive32(name)];
}

/** A non-negative 32-bit hash (advisory lock keys show up in pg_locks as unsigned oids). */
export function positive32(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) & 0x7fffffff;
}

/** Opens the held connection; resolves once it is up (rejects with a StorageError if it cannot connect). */
export async function openPostgresSession(
  target: PostgresTarget,
  logger?: Logger | undefined,
): Promise<PostgresSession> {
  const [livenessNs] = lockKeys(target.schema, 'replica', '');
  const prefix = `${target.schema}:`;
  const notified: ((payload: string) => void)[] = [];
  const lost: (() => void)[] = [];
  const ups: (() => void)[] = [];
  let client: pg.Client | undefined;
  let owner = 0;
  let closed = false;
  let attempt = 0;

  const connect = async (): Promise<void> => {
    const c = new pg.Client({
      ...connectionOf(target),
      keepAlive: true,
      connectionTimeoutMillis: 5000,
      statement_timeout: STATEMENT_TIMEOUT_MS,
      query_timeout: STATEMENT_TIMEOUT_MS + 5000,
      application_name: 'thinkthread-session',
      options: target.schema === 'public' ? undefined : `-c search_path=${target.schema}`,
    });
    c.on('error', () => undefined); // 'end' follows and drives the reconnect
    c.on('notification', (msg) => {
      if (msg.channel !== RUNS_CHANNEL || !msg.payload?.startsWith(prefix)) return;
      const payload = msg.payload.slice(prefix.length);
      for (const handler of notified) handler(payload);
    });
    await c.connect();
    try {
      // A fresh number per connection: an old session the server has not noticed dead yet may still hold its own.
      for (;;) {
        const candidate = 1 + Math.floor(Math.random() * 0x7ffffffe);
        const { rows } = await c.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', [
          livenessNs,
          candidate,
        ]);
        if (rows[0]?.ok) {
          owner = candidate;
          break;
        }
      }
      await c.query(`LISTEN ${RUNS_CHANNEL}`);
    } catch (err) {
      await c.end().catch(() => undefined);
      throw err;
    }
    c.once('end', () => {
      if (client !== c) return;
      client = undefined;
      if (closed) return;
      logger?.warn('the held Postgres connection was lost; its locks are gone, reconnecting');
      for (const handler of lost) handler();
      reconnect();
    });
    client = c;
    attempt = 0;
    for (const handler of ups) handler();
  };

  const reconnect = () => {
    const delay = RECONNECT_MS[Math.min(attempt++, RECONNECT_MS.length - 1)]!;
    setTimeout(() => {
      if (closed) return;
      connect().catch((err: unknown) => {
        logger?.debug({ err: describe(err) }, 'the held Postgres connection is still down');
        reconnect();
      });
    }, delay).unref();
  };

  try {
    await connect();
  } catch (err) {
    throw new StorageError(`Cannot open a session on the ${target.describe}: ${describe(err)}`, err);
  }

  return {
    get owner() {
      return owner;
    },
    get up() {
      return client !== undefined;
    },
    async query(what, text, params) {
      const c = client;
      if (!c) throw new StorageError(`Could not ${what}: the connection to the ${target.describe} is down`);
      try {
        return await c.query(text, params);
      } catch (err) {
        throw new StorageError(`Could not ${what} in the ${target.describe}: ${describe(err)}`, err);
      }
    },
    onNotify: (handler) => void notified.push(handler),
    onLost: (handler) => void lost.push(handler),
    onUp: (handler) => void ups.push(handler),
    async close() {
      closed = true;
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };

  function describe(err: unknown): string {
    const message = err instanceof Error ? err.message : String(err);
    return target.password ? message.split(target.password).join('***') : message;
  }
}
