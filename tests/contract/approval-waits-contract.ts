import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalWait } from '../../src/core/ports/approval-wait-store.js';
import type { Store } from '../../src/core/ports/store.js';
import type { StoreFixture } from './store-contract.js';

const T = Date.UTC(2026, 0, 15, 12);

const wait = (over: Partial<ApprovalWait> = {}): ApprovalWait => ({
  id: 'w1',
  runId: 'r1',
  platform: 'slack',
  key: 'slack:T1:C1',
  tool: 'github__create_issue',
  asker: 'slack:T1:U1',
  requestedAt: T,
  expiresAt: T + 600_000,
  owner: 'replica-a',
  seenAt: T,
  state: JSON.stringify({ question: 'file a bug', messages: [{ role: 'user', content: 'é ✓ "quoted"' }] }),
  ...over,
});

const claim = (now: number, staleBefore: number, platforms: string[] = ['slack']) => ({
  now,
  staleBefore,
  platforms,
  limit: 10,
});

/** The behaviour of tool calls waiting for a person that every store (SQLite, Postgres) must show. */
export function approvalWaitsContract(name: string, open: () => Promise<StoreFixture>): void {
  describe(`approval waits contract: ${name}`, () => {
    let f: StoreFixture;
    let store: Store;
    beforeEach(async () => {
      f = await open();
      store = f.store;
    });
    afterEach(async () => {
      await f.cleanup();
    });

    it('keeps a waiting call with its state across a reopen, and forgets it when told', async () => {
      await store.saveWait(wait());
      const again = await f.reopen();
      expect(await again.getWait('w1')).toEqual(wait());
      await again.dropWait('w1');
      expect(await again.getWait('w1')).toBeUndefined();
    });

    it('counts the calls still waiting in a conversation', async () => {
      await store.saveWait(wait());
      await store.saveWait(wait({ id: 'w2', runId: 'r2' }));
      await store.saveWait(wait({ id: 'w3', runId: 'r3', key: 'slack:T1:C2' }));
      await store.decideWait('w2', { outcome: 'approved', at: T + 1 });
      expect((await store.waitsIn('slack:T1:C1')).map((w) => w.id)).toEqual(['w1']);
      expect((await store.waitsIn('slack:T1:C2')).map((w) => w.id)).toEqual(['w3']);
      expect(await store.waitsIn('slack:T1:C9')).toEqual([]);
    });

    it('lets exactly one of several decisions win', async () => {
      await store.saveWait(wait());
      const results = await Promise.all([
        store.decideWait('w1', { outcome: 'approved', at: T + 1, by: 'slack:T1:U1', byName: 'Ann' }),
        store.decideWait('w1', { outcome: 'denied', at: T + 2, by: 'slack:T1:U2', reason: 'no' }),
      ]);
      const won = results.filter((r) => r !== undefined);
      expect(won).toHaveLength(1);
      expect((await store.getWait('w1'))?.decision).toEqual(won[0]?.decision);
      expect(await store.decideWait('missing', { outcome: 'approved', at: T })).toBeUndefined();
    });

    it('tells its owner of decisions made elsewhere, and keeps it from being an orphan', async () => {
      await store.saveWait(wait());
      await store.saveWait(wait({ id: 'w2', runId: 'r2' }));
      await store.saveWait(wait({ id: 'w3', runId: 'r3', owner: 'replica-b' }));
      await store.decideWait('w2', { outcome: 'denied', at: T + 5, by: 'slack:T1:U1', reason: 'wrong repo' });
      await store.decideWait('w3', { outcome: 'approved', at: T + 5, by: 'slack:T1:U1' });
      const told = await store.touchWaits('replica-a', T + 10_000);
      expect(told).toEqual([
        { id: 'w2', decision: { outcome: 'denied', at: T + 5, by: 'slack:T1:U1', reason: 'wrong repo' } },
      ]);
      // replica-a was seen at T+10 s; replica-b last at T: only its decided wait is an orphan.
      const taken = await store.claimOrphans(claim(T + 20_000, T + 5_000));
      expect(taken.map((w) => w.id)).toEqual(['w3']);
      expect(await store.getWait('w3')).toBeUndefined();
      expect(await store.getWait('w2')).toBeDefined();
    });

    it('hands over orphans once decided or expired, whole runs at a time, each to one taker', async () => {
      await store.saveWait(wait({ id: 'undecided', runId: 'r0' }));
      await store.saveWait(wait({ id: 'x1', runId: 'r1' }));
      await store.saveWait(wait({ id: 'x2', runId: 'r1' }));
      await store.saveWait(wait({ id: 'late', runId: 'r2', expiresAt: T + 1000 }));
      await store.saveWait(wait({ id: 'discord', runId: 'r3', platform: 'discord', expiresAt: T + 1000 }));
      await store.decideWait('x1', { outcome: 'approved', at: T + 1 });
      const [first, second] = await Promise.all([
        store.claimOrphans(claim(T + 2000, T + 1500)),
        store.claimOrphans(claim(T + 2000, T + 1500)),
      ]);
      const taken = [...(first ?? []), ...(second ?? [])].map((w) => w.id).sort();
      // x2 goes with x1 (one run); 'undecided' waits on; the Discord one is for a process that has Discord.
      expect(taken).toEqual(['late', 'x1', 'x2']);
      expect((await store.getWait('undecided'))?.id).toBe('undecided');
      expect((await store.claimOrphans(claim(T + 2000, T + 1500, ['discord']))).map((w) => w.id)).toEqual([
        'discord',
      ]);
      expect(await store.claimOrphans(claim(T + 2000, T + 1500, ['slack', 'discord']))).toEqual([]);
    });
  });
}
