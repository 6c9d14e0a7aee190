import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/core/ports/store.js';
import type { WebSession } from '../../src/core/ports/web-session-store.js';
import type { StoreFixture } from './store-contract.js';

const T = Date.UTC(2026, 0, 15, 12);
const ALICE = 'slack:T0ACME01:U0ALICE01';
const BOB = 'discord:80351110224678912';

const session = (id: string, principal: string, over: Partial<WebSession> = {}): WebSession => ({
  id,
  principal,
  userId: principal.split(':').at(-1)!,
  name: `name of ${id}`,
  roles: [],
  createdAt: T,
  lastSeen: T,
  checkedAt: T,
  address: '203.0.113.7',
  userAgent: 'Mozilla/5.0 (test)',
  ...over,
});

/** The sign-in session behaviour every store implementation (SQLite, Postgres) must show. */
export function webSessionsContract(name: string, open: () => Promise<StoreFixture>): void {
  describe(`web sessions contract: ${name}`, () => {
    let f: StoreFixture;
    let store: Store;
    beforeEach(async () => {
      f = await open();
      store = f.store;
    });
    afterEach(async () => {
      await f.cleanup();
    });

    it('keeps a session whole across a restart, with its sealed grant and roles', async () => {
      const s = session('s1', BOB, { roles: ['111', '222'], grant: 'sealed-grant-value' });
      await store.createWebSession(s);
      const again = await f.reopen();
      expect(await again.webSession('s1')).toEqual(s);
      expect(await again.webSession('nope')).toBeUndefined();
    });

    it('records use and membership checks; use never goes back in time', async () => {
      await store.createWebSession(session('s1', ALICE));
      await store.touchWebSession('s1', T + 5000);
      await store.touchWebSession('s1', T + 1000);
      await store.confirmWebSession('s1', T + 9000, ['42']);
      expect(await store.webSession('s1')).toMatchObject({
        lastSeen: T + 5000,
        checkedAt: T + 9000,
        roles: ['42'],
      });
    });

    it('ends one session, or every session of a person, and nobody else’s', async () => {
      await store.createWebSession(session('a1', ALICE));
      await store.createWebSession(session('a2', ALICE));
      await store.createWebSession(session('b1', BOB));
      expect(await store.deleteWebSession('a1')).toBe(true);
      expect(await store.deleteWebSession('a1')).toBe(false);
      expect(await store.webSession('a1')).toBeUndefined();
      await store.createWebSession(session('a3', ALICE));
      expect(await store.deleteWebSessionsOf(ALICE)).toBe(2);
      expect(await store.webSession('a2')).toBeUndefined();
      expect(await store.webSession('b1')).toBeDefined();
    });

    it('ends sessions idle too long or older than the limit, and lists the rest newest first without grants', async () => {
      await store.createWebSession(session('idle', ALICE, { lastSeen: T - 10_000 }));
      await store.createWebSession(session('old', ALICE, { createdAt: T - 100_000, lastSeen: T + 10 }));
      await store.createWebSession(session('fresh', BOB, { lastSeen: T + 20, grant: 'secret' }));
      await store.createWebSession(session('fresher', BOB, { lastSeen: T + 30 }));
      expect(await store.deleteExpiredWebSessions(T - 5000, T - 50_000)).toBe(2);
      const listed = await store.listWebSessions(10);
      expect(listed.map((s) => s.id)).toEqual(['fresher', 'fresh']);
      expect(listed.every((s) => s.grant === undefined)).toBe(true);
      expect(await store.listWebSessions(1)).toHaveLength(1);
    });
  });
}
