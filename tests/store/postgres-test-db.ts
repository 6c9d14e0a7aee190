import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';

const VARIABLE = 'TEST_DATABASE_URL';

/** The Postgres URL the tests run against (TEST_DATABASE_URL), or undefined. */
export const testDatabaseUrl: string | undefined = process.env[VARIABLE]?.trim() || undefined;

/**
 * `suite(url)` when TEST_DATABASE_URL is set. Without it the Postgres tests fail in CI (CI=true) and are
 * skipped elsewhere, with a warning naming the variable.
 */
export function postgresSuite(name: string, suite: (url: string) => void): void {
  if (testDatabaseUrl) {
    suite(testDatabaseUrl);
    return;
  }
  const why = `${VARIABLE} is not set: the Postgres tests need it (e.g. ${VARIABLE}=postgres://postgres@127.0.0.1:5432/test)`;
  if (process.env.CI === 'true') {
    describe(name, () => {
      it(`runs against a real Postgres (${VARIABLE})`, () => {
        expect.fail(why);
      });
    });
    return;
  }
  console.warn(`Skipping "${name}": ${why}`);
  describe.skip(name, () => {
    it(`runs against a real Postgres (${VARIABLE})`, () => undefined);
  });
}

/** A fresh schema name for one test run, e.g. `tt_3f9a0c1b2d4e`. */
export const freshSchema = () => `tt_${randomBytes(6).toString('hex')}`;

/** `url` with `?schema=` set to `schema`. */
export function withSchema(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('schema', schema);
  return u.toString();
}

/** Runs `work` on a connection of its own to `url` (no schema), then closes it. */
export async function asAdmin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const u = new URL(url);
  u.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: u.toString() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Drops `schema` and everything in it. */
export const dropSchema = (url: string, schema: string) =>
  asAdmin(url, (c) => c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
