import { afterEach, describe, expect, it } from 'vitest';
import type { FakeSlackOidc } from '../../fakes/slack-oidc.js';
import { dropSchema, freshSchema, testDatabaseUrl, withSchema } from '../../store/postgres-test-db.js';
import { type SignInBed, SLACK_PRINCIPAL, signInOverHttp, startSlackSignInBed } from './sign-in-harness.js';
import { WebClient } from './web-client.js';
import { startWebBed, TOKEN, type WebBed } from './web-harness.js';

const HOUR = 3_600_000;
const ADMIN_TOKEN = 'admin-token-0123456789-abcdefghij';
const SECRET = 'a-session-secret-of-at-least-32-characters';

/** Where a test's beds keep their data: a SQLite file of the first bed's, or a fresh Postgres schema. */
interface Engine {
  name: string;
  /** The DATABASE_URL to share (undefined: the first bed's own SQLite file). */
  open(): Promise<string | undefined>;
  cleanup(): Promise<void>;
}

const sqlite: Engine = { name: 'SQLite', open: async () => undefined, cleanup: async () => {} };
const schemas: string[] = [];
const postgres: Engine = {
  name: 'Postgres',
  async open() {
    const schema = freshSchema();
    schemas.push(schema);
    return withSchema(testDatabaseUrl!, schema);
  },
  async cleanup() {
    for (const schema of schemas.splice(0)) await dropSchema(testDatabaseUrl!, schema);
  },
};

const engines = testDatabaseUrl || process.env.CI === 'true' ? [sqlite, postgres] : [sqlite];
if (!testDatabaseUrl && process.env.CI !== 'true')
  console.warn('Skipping the Postgres sign-in session tests: TEST_DATABASE_URL is not set');

describe.each(engines)('web sign-in sessions kept in the store ($name)', (engine) => {
  let signIn: SignInBed<FakeSlackOidc> | undefined;
  const beds: WebBed[] = [];
  let clock = Date.now();
  afterEach(async () => {
    for (const b of beds.splice(0)) await b.close();
    await signIn?.close();
    signIn = undefined;
    await engine.cleanup();
  });
  const start = async (env: Record<string, string> = {}) => {
    clock = Date.now();
    const databaseUrl = await engine.open();
    signIn = await startSlackSignInBed(
      { WEB_SESSION_SECRET: SECRET, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), ...env },
      { now: () => clock },
    );
    return signIn.bed;
  };
  const signedIn = async (bed: WebBed) => {
    const client = new WebClient(bed.url);
    expect(await signInOverHttp(client)).toBe(bed.url);
    return client;
  };
  const copyOf = (client: WebClient, bed: WebBed) => {
    const copy = new WebClient(bed.url);
    for (const [k, v] of client.cookies) copy.cookies.set(k, v);
    return copy;
  };

  it('a cookie copied before sign-out is worth nothing after it', async () => {
    const bed = await start();
    const browser = await signedIn(bed);
    const stolen = copyOf(browser, bed);
    expect((await stolen.request('/api/session')).status).toBe(200);
    expect((await browser.request('/auth/sign-out', {})).status).toBe(204);
    expect((await stolen.request('/api/session')).status).toBe(401);
    expect((await stolen.request('/api/ask', { text: 'hi' })).status).toBe(401);
  });

  it('ends after WEB_SESSION_IDLE without use, and after WEB_SESSION_MAX however much it is used', async () => {
    const bed = await start({ WEB_SESSION_IDLE: '1h', WEB_SESSION_MAX: '3h' });
    const idle = await signedIn(bed);
    const busy = await signedIn(bed);
    const seen: number[] = [];
    for (let n = 0; n < 4; n++) {
      clock += 50 * 60_000;
      seen.push((await busy.request('/api/session')).status);
    }
    // Used every 50 minutes: signed in until three hours have passed since signing in (200 minutes here).
    expect(seen).toEqual([200, 200, 200, 401]);
    expect((await idle.request('/api/session')).status).toBe(401);

    const fresh = await signedIn(bed);
    clock += HOUR - 60_000;
    expect((await fresh.request('/api/session')).status).toBe(200);
    clock += HOUR - 60_000;
    expect((await fresh.request('/api/session')).status).toBe(200);
    clock += HOUR + 1;
    expect((await fresh.request('/api/session')).status).toBe(401);
  });

  it('“Sign out everywhere” ends the person’s other browsers, and nobody else’s', async () => {
    const bed = await start();
    const laptop = await signedIn(bed);
    const phone = await signedIn(bed);
    signIn!.provider.signInAs({ userId: 'U0BOB0001', teamId: 'T0ACME01', name: 'Bob' });
    const bob = await signedIn(bed);
    expect((await phone.request('/auth/sign-out-everywhere', {})).status).toBe(204);
    expect((await laptop.request('/api/session')).status).toBe(401);
    expect((await phone.request('/api/session')).status).toBe(401);
    expect((await bob.request('/api/session')).status).toBe(200);
  });

  it('an admin lists sessions on the admin page and ends a person’s, who is then signed out', async () => {
    const bed = await start({ ADMIN_USERS: 'slack:T0ACME01:U0BOB0001' });
    const alice = await signedIn(bed);
    signIn!.provider.signInAs({ userId: 'U0BOB0001', teamId: 'T0ACME01', name: 'Bob' });
    const admin = await signedIn(bed);
    expect((await alice.request('/admin/api/sessions')).status).toBe(403);
    const listed = await admin.request('/admin/api/sessions');
    expect(((listed.body?.sessions ?? []) as { principal: string }[]).map((s) => s.principal).sort()).toEqual(
      [SLACK_PRINCIPAL, 'slack:T0ACME01:U0BOB0001'],
    );
    expect(JSON.stringify(listed.body)).not.toMatch(/grant|xoxp-/);
    expect((await admin.request('/admin/api/sessions/end', { principal: SLACK_PRINCIPAL })).body).toEqual({
      ended: 1,
    });
    expect((await alice.request('/api/session')).status).toBe(401);
    expect((await admin.request('/api/session')).status).toBe(200);
  });

  it('a person blocked (BLOCK_USERS) is signed out on every replica sharing the store', async () => {
    const bed = await start();
    const browser = await signedIn(bed);
    const replica = await startWebBed(
      {
        WEB_AUTH: 'slack',
        WEB_PUBLIC_URL: bed.url,
        SLACK_CLIENT_ID: 'x',
        SLACK_CLIENT_SECRET: 'y',
        SLACK_TEAM_ID: 'T0ACME01',
        WEB_SESSION_SECRET: SECRET,
        BLOCK_USERS: SLACK_PRINCIPAL,
      },
      {},
      { databaseUrl: bed.test.config.DATABASE_URL },
    );
    beds.push(replica);
    expect((await copyOf(browser, replica).request('/api/session')).status).toBe(401);
    // Its row is gone, so the replica that does not block the person refuses the cookie too.
    expect((await browser.request('/api/session')).status).toBe(401);
  });

  it('an ADMIN_TOKEN login starts a fresh session each time; logging out ends that one only', async () => {
    const databaseUrl = await engine.open();
    const bed = await startWebBed({
      WEB_CHAT_TOKEN: TOKEN,
      ADMIN_TOKEN,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
    beds.push(bed);
    const login = async () => {
      const client = new WebClient(bed.url);
      expect((await client.request('/admin/api/login', { token: ADMIN_TOKEN })).status).toBe(204);
      return client;
    };
    const first = await login();
    const second = await login();
    expect(first.cookies.get('tt_admin')).not.toBe(second.cookies.get('tt_admin'));
    const replay = copyOf(first, bed);
    expect((await first.request('/admin/api/logout', {})).status).toBe(204);
    expect((await replay.request('/admin/api/stats')).status).toBe(401);
    expect((await second.request('/admin/api/stats')).status).toBe(200);
  });
});
