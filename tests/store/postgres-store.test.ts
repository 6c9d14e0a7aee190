import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StorageError } from '../../src/core/errors.js';
import type { Store } from '../../src/core/ports/store.js';
import type { UsageStart } from '../../src/core/ports/usage-store.js';
import { createStore } from '../../src/store/create-store.js';
import type { PostgresOptions } from '../../src/store/postgres/postgres-db.js';
import { PG_MIGRATIONS } from '../../src/store/postgres/postgres-migrations.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { parsePostgresUrl } from '../../src/store/postgres/postgres-url.js';
import { admitLocks } from '../../src/store/postgres/postgres-usage-locks.js';
import { freePort } from '../helpers/free-port.js';
import { asAdmin, dropSchema, freshSchema, postgresSuite, withSchema } from './postgres-test-db.js';
import { startWorker } from './spawn-worker.js';

// Trust auth accepts any password: this one must never show up in a message.
const PASSWORD = 'hunter2-s3cret-pw';
const T = Date.UTC(2026, 0, 15, 12);
const ask = (userId: string): UsageStart => ({
  at: T,
  platform: 'console',
  key: 'k',
  userId,
  model: 'm',
  protocol: 'tools',
});
const allRule = (limit: number) => ({
  rates: [{ name: 'RATE', scope: 'all' as const, limit, windowMs: 3_600_000 }],
  budgets: [],
});

/** The rejection of `promise`, which must be a StorageError without the password. */
async function storageErrorOf(promise: Promise<unknown>): Promise<StorageError> {
  const err = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StorageError);
  const text = `${(err as Error).message} ${String((err as Error).cause)}`;
  expect(text).not.toContain(PASSWORD);
  return err as StorageError;
}

postgresSuite('Postgres store', (base) => {
  const url = (() => {
    const u = new URL(base);
    u.password = PASSWORD;
    return u.toString();
  })();
  let schema: string;
  let app: string;
  const opened: Store[] = [];
  const open = async (options: PostgresOptions = {}) => {
    const store = await openPostgresStore(parsePostgresUrl(withSchema(url, schema)), {
      applicationName: app,
      ...options,
    });
    opened.push(store);
    return store;
  };
  /** Ends every server connection of the stores under test, as a restart or a network cut would. */
  const terminateStoreConnections = () =>
    asAdmin(base, async (c) => {
      const { rows } = await c.query<{ n: number }>(
        'SELECT COUNT(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1',
        [app],
      );
      return rows[0]!.n;
    });

  beforeEach(() => {
    schema = freshSchema();
    app = `thinkthread-test-${schema}`;
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    await dropSchema(base, schema);
  });

  describe('migration', () => {
    it('creates its schema and records each version once', async () => {
      await open();
      const versions = await asAdmin(base, (c) =>
        c.query<{ version: number }>(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`),
      );
      expect(versions.rows.map((r) => r.version)).toEqual(PG_MIGRATIONS.map((_, i) => i + 1));
    });

    it('is safe when several processes start on an empty database at once', { timeout: 60_000 }, async () => {
      const env = { WORKER_DATABASE_URL: withSchema(url, schema) };
      const workers = await Promise.all(Array.from({ length: 4 }, () => startWorker(env)));
      const tallies = await Promise.all(workers.map((go) => go()));
      expect(tallies).toHaveLength(4);
      const versions = await asAdmin(base, (c) =>
        c.query<{ version: number }>(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`),
      );
      expect(versions.rows.map((r) => r.version)).toEqual(PG_MIGRATIONS.map((_, i) => i + 1));
    });

    it('names the people of existing usage and feedback as principals (platform:id) when it upgrades', async () => {
      await asAdmin(base, async (c) => {
        await c.query(`CREATE SCHEMA "${schema}"`);
        await c.query(`SET search_path TO "${schema}"`);
        await c.query(
          'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)',
        );
        for (const [i, migration] of PG_MIGRATIONS.slice(0, 5).entries()) {
          await c.query(migration);
          await c.query('INSERT INTO schema_migrations VALUES ($1, 0)', [i + 1]);
        }
        await c.query(
          `INSERT INTO usage (at, platform, key, user_id, model, protocol, outcome, model_calls, prompt_tokens,
             completion_tokens, tools, duration_ms)
           VALUES (1, 'slack', 'slack:T:C1', 'U0ADMIN01', 'm', 'tools', 'answered', 1, 10, 5, '{}', 1),
                  (2, 'web', 'web:chat', 'browser123', 'm', 'tools', 'answered', 1, 10, 5, '{}', 1),
                  (3, 'slack', 'slack:T:C1', NULL, 'm', 'tools', 'summary', 1, 10, 5, '{}', 1)`,
        );
        await c.query(
          "INSERT INTO feedback (platform, run_id, user_id, key, vote, at) VALUES ('discord', 'r1', '42', 'k', 'up', 1)",
        );
      });
      const store = await open();
      const records = await store.records({ since: 0, until: 10 });
      expect(records.map((r) => r.userId)).toEqual(['slack:U0ADMIN01', 'web:browser123', null]);
      const voters = await asAdmin(base, (c) =>
        c.query<{ user_id: string }>(`SELECT user_id FROM "${schema}".feedback`),
      );
      expect(voters.rows.map((r) => r.user_id)).toEqual(['discord:42']);
    });

    it('refuses a schema newer than this build, naming the versions', async () => {
      await open();
      await asAdmin(base, (c) =>
        c.query(`INSERT INTO "${schema}".schema_migrations (version, applied_at) VALUES (999, 0)`),
      );
      const err = await storageErrorOf(open());
      expect(err.message).toMatch(/schema version 999 is newer than this build understands/);
    });
  });

  describe('admit', () => {
    it('admits exactly the limit in total when four processes race for it', { timeout: 60_000 }, async () => {
      await open();
      const env = {
        WORKER_DATABASE_URL: withSchema(url, schema),
        WORKER_OPEN: 'early',
        WORKER_ASKS: '30',
        WORKER_LIMIT: '50',
      };
      const workers = await Promise.all(Array.from({ length: 4 }, () => startWorker(env)));
      const tallies = await Promise.all(workers.map((go) => go()));
      expect(tallies.map((t) => t.failed)).toEqual([0, 0, 0, 0]);
      expect(tallies.reduce((n, t) => n + t.admitted, 0)).toBe(50);
      const store = opened[0]!;
      const stored = await store.records({ since: 0, until: Date.UTC(2027, 0, 1) });
      expect(stored.filter((r) => r.outcome === 'pending')).toHaveLength(50);
      expect(stored.filter((r) => r.outcome === 'limited')).toHaveLength(70);
    });

    it('lets admits of different users run side by side when no rule counts them together', async () => {
      const store = await open();
      const userRule = (userId: string) => ({
        rates: [{ name: 'RATE', scope: { userId }, limit: 1, windowMs: 60_000 }],
        budgets: [],
      });
      // Another session holds u1's lock: u1's ask waits, u2's goes through meanwhile.
      const [u1Lock] = admitLocks(schema, ask('u1'), userRule('u1')).filter((l) => l.exclusive);
      await asAdmin(base, async (c) => {
        await c.query('SELECT pg_advisory_lock($1)', [u1Lock!.key]);
        const waiting = store.admit(ask('u1'), userRule('u1'));
        expect((await store.admit(ask('u2'), userRule('u2'))).admitted).toBe(true);
        await c.query('SELECT pg_advisory_unlock($1)', [u1Lock!.key]);
        expect((await waiting).admitted).toBe(true);
      });
    });
  });

  describe('faults', () => {
    it('fails to open with a StorageError naming host, port and database when nothing listens', async () => {
      const port = await freePort();
      const down = `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/test`;
      const err = await storageErrorOf(createStore(down, { connectTimeoutMs: 2000 }));
      expect(err.message).toContain(`Postgres database test at 127.0.0.1:${port}`);
      expect(err.message).toMatch(/ECONNREFUSED/);
    });

    it('fails to open with a StorageError naming a database that does not exist', async () => {
      const u = new URL(url);
      u.pathname = '/no_such_db_here';
      const err = await storageErrorOf(createStore(u.toString()));
      expect(err.message).toMatch(
        /Postgres database no_such_db_here at .*: database "no_such_db_here" does not exist/,
      );
    });

    it('recovers by itself after its connections were terminated', async () => {
      const store = await open({ poolSize: 3 });
      await Promise.all([store.ping(), store.ping(), store.ping()]);
      await store.appendTurn('k', { author: 'a', question: 'q1', answer: 'a1', tokens: 1 });
      expect(await terminateStoreConnections()).toBeGreaterThan(0);
      // Each dead connection fails at most one call and is then discarded; new ones take its place.
      const failures: unknown[] = [];
      for (let i = 0; i < 5; i++) {
        try {
          await store.appendTurn('k', { author: 'a', question: 'q2', answer: 'a2', tokens: 1 });
          break;
        } catch (err) {
          failures.push(err);
        }
      }
      expect(failures.length).toBeLessThanOrEqual(3);
      for (const f of failures) await storageErrorOf(Promise.reject(f));
      expect((await store.load('k')).turns.map((t) => t.question)).toEqual(['q1', 'q2']);
    });

    it('rejects a call in flight quickly when its connection is terminated, then goes on', async () => {
      const store = await open();
      const [lock] = admitLocks(schema, ask('u1'), allRule(1)).filter((l) => l.exclusive);
      await asAdmin(base, async (c) => {
        await c.query('SELECT pg_advisory_lock($1)', [lock!.key]);
        let settledAt = 0;
        const failed = storageErrorOf(
          store.admit(ask('u1'), allRule(1)).finally(() => {
            settledAt = Date.now();
          }),
        );
        await expect.poll(() => lockWaiters(c, app)).toBe(1);
        const terminatedAt = Date.now();
        expect(await terminateStoreConnections()).toBe(1);
        const err = await failed;
        expect(settledAt - terminatedAt).toBeLessThan(2000);
        expect(err.message).toMatch(/Could not check the usage limits in the Postgres database/);
        await c.query('SELECT pg_advisory_unlock($1)', [lock!.key]);
      });
      await expect
        .poll(() =>
          store.ping().then(
            () => true,
            () => false,
          ),
        )
        .toBe(true);
      expect((await store.admit(ask('u1'), allRule(1))).admitted).toBe(true);
    });

    it('times out a statement stuck behind a lock, saying so', async () => {
      const store = await open({ statementTimeoutMs: 300 });
      const [lock] = admitLocks(schema, ask('u1'), allRule(1)).filter((l) => l.exclusive);
      await asAdmin(base, async (c) => {
        await c.query('SELECT pg_advisory_lock($1)', [lock!.key]);
        const err = await storageErrorOf(store.admit(ask('u1'), allRule(1)));
        expect(err.message).toMatch(/a statement ran longer than 300 ms \(statement timeout\)/);
      });
      expect((await store.admit(ask('u1'), allRule(1))).admitted).toBe(true);
    });

    it('says the pool is exhausted when every connection stays busy', async () => {
      const store = await open({ poolSize: 1, connectTimeoutMs: 200, statementTimeoutMs: 5000 });
      const [lock] = admitLocks(schema, ask('u1'), allRule(1)).filter((l) => l.exclusive);
      await asAdmin(base, async (c) => {
        await c.query('SELECT pg_advisory_lock($1)', [lock!.key]);
        const holding = store.admit(ask('u1'), allRule(1));
        await expect.poll(() => lockWaiters(c, app)).toBe(1);
        const err = await storageErrorOf(store.ping());
        expect(err.message).toMatch(/all 1 connections \(DATABASE_POOL_SIZE\) stayed busy for 200 ms/);
        await c.query('SELECT pg_advisory_unlock($1)', [lock!.key]);
        expect((await holding).admitted).toBe(true);
      });
    });

    it('rejects every call after close with a StorageError naming the database', async () => {
      const store = await open();
      await store.close();
      const err = await storageErrorOf(store.ping());
      expect(err.message).toMatch(/Postgres database .* is closed/);
    });
  });
});

/** How many sessions of `app` wait for a lock. */
async function lockWaiters(c: import('pg').Client, app: string): Promise<number> {
  const { rows } = await c.query<{ n: number }>(
    "SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
    [app],
  );
  return rows[0]!.n;
}
