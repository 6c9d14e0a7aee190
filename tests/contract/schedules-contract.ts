import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Schedule, ScheduleStore } from '../../src/core/ports/schedule-store.js';
import type { StoreFixture } from './store-contract.js';

const T0 = Date.UTC(2026, 11, 3, 9, 0);

/** A schedule as the service would make it; `over` replaces fields. */
export function aSchedule(id: string, over: Partial<Schedule> = {}): Schedule {
  return {
    id,
    key: 'discord:g1:c1',
    settingsKey: 'discord:g1:c1',
    creator: {
      platform: 'discord',
      userId: 'u1',
      principal: 'discord:u1',
      channelId: 'c1',
      dm: false,
      name: 'ann',
    },
    question: 'stretch',
    cron: null,
    timezone: 'Europe/Berlin',
    nextAt: T0,
    paused: false,
    createdAt: T0 - 60_000,
    ...over,
  };
}

/** Settles one claim as `owner`; whether it was still theirs. */
const settleOne = async (
  store: ScheduleStore,
  s: { id: string; owner: string; dueAt: number; next: { at: number; paused?: boolean } | null },
) => (await store.settleSchedules(s.owner, [{ id: s.id, dueAt: s.dueAt, next: s.next }])).length === 1;

const claim = (store: ScheduleStore, owner: string, now = T0, platforms = ['discord', 'slack']) =>
  store.claimDueSchedules({ now, leaseMs: 30_000, owner, platforms, limit: 100 });

/** The schedules behaviour every store implementation must show. */
export function schedulesContract(name: string, open: () => Promise<StoreFixture>): void {
  describe(`schedules contract: ${name}`, () => {
    let f: StoreFixture;
    let store: ScheduleStore;
    beforeEach(async () => {
      f = await open();
      store = f.store;
    });
    afterEach(async () => {
      await f.cleanup();
    });

    it('keeps a schedule whole, lists it by channel and by creator, soonest first, and deletes it', async () => {
      const recurring = aSchedule('b', {
        cron: '0 9 * * 1',
        question: 'Summarise “last week” ☃️\nplease',
        nextAt: T0 + 5,
      });
      expect(await store.addSchedule(aSchedule('a'), 10)).toBe(true);
      expect(await store.addSchedule(recurring, 10)).toBe(true);
      expect(await store.schedule('b')).toEqual(recurring);
      expect((await store.schedules({ key: 'discord:g1:c1' })).map((s) => s.id)).toEqual(['a', 'b']);
      expect((await store.schedules({ creator: 'discord:u1' })).map((s) => s.id)).toEqual(['a', 'b']);
      expect(await store.schedules({ creator: 'discord:u2' })).toEqual([]);
      expect(await store.deleteSchedule('a')).toBe(true);
      expect(await store.deleteSchedule('a')).toBe(false);
      expect(await store.schedule('a')).toBeUndefined();
    });

    it('refuses a creator past the limit, counting only their own', async () => {
      expect(await store.addSchedule(aSchedule('a'), 2)).toBe(true);
      expect(await store.addSchedule(aSchedule('b'), 2)).toBe(true);
      expect(await store.addSchedule(aSchedule('c'), 2)).toBe(false);
      const other = aSchedule('d', { creator: { ...aSchedule('d').creator, principal: 'discord:u2' } });
      expect(await store.addSchedule(other, 2)).toBe(true);
      expect((await store.schedules({ creator: 'discord:u1' })).length).toBe(2);
    });

    it('counts the origin too: new principals from one address share its limit, other addresses keep theirs', async () => {
      const browser = (id: string, principal: string, origin?: string) =>
        aSchedule(id, {
          key: 'web:b:k',
          creator: { ...aSchedule(id).creator, platform: 'web', principal, ...(origin ? { origin } : {}) },
        });
      expect(await store.addSchedule(browser('a', 'web:b1', 'addr:203.0.113.7'), 2)).toBe(true);
      expect(await store.addSchedule(browser('b', 'web:b2', 'addr:203.0.113.7'), 2)).toBe(true);
      expect(await store.addSchedule(browser('c', 'web:b3', 'addr:203.0.113.7'), 2)).toBe(false);
      expect(await store.addSchedule(browser('d', 'web:b3', 'addr:198.51.100.1'), 2)).toBe(true);
      // The person's own count still holds from a new address, and one without an origin counts only itself.
      expect(await store.addSchedule(browser('e', 'web:b1', 'addr:198.51.100.2'), 1)).toBe(false);
      expect(await store.addSchedule(browser('f', 'web:b4'), 2)).toBe(true);
      expect((await store.schedule('a'))?.creator.origin).toBe('addr:203.0.113.7');
      expect(await store.schedule('c')).toBeUndefined();
    });

    it('lets two concurrent additions from one origin past the limit add only one', async () => {
      const from = (id: string, principal: string) =>
        aSchedule(id, { creator: { ...aSchedule(id).creator, principal, origin: 'addr:203.0.113.7' } });
      await store.addSchedule(from('a', 'web:b1'), 2);
      const second = await f.reopen();
      const added = await Promise.all([
        store.addSchedule(from('b', 'web:b2'), 2),
        second.addSchedule(from('c', 'web:b3'), 2),
      ]);
      expect(added.filter(Boolean)).toHaveLength(1);
    });

    it('lets two concurrent additions past the limit add only one', async () => {
      await store.addSchedule(aSchedule('a'), 2);
      const second = await f.reopen();
      const added = await Promise.all([
        store.addSchedule(aSchedule('b'), 2),
        second.addSchedule(aSchedule('c'), 2),
      ]);
      expect(added.filter(Boolean)).toHaveLength(1);
    });

    it('claims only due, unpaused schedules of the given platforms, each once until its lease runs out', async () => {
      await store.addSchedule(aSchedule('due'), 10);
      await store.addSchedule(aSchedule('later', { nextAt: T0 + 1 }), 10);
      await store.addSchedule(aSchedule('paused', { paused: true }), 10);
      await store.addSchedule(aSchedule('web', { key: 'web:b1:k' }), 10);
      expect((await claim(store, 'r1')).map((s) => s.id)).toEqual(['due']);
      expect(await claim(store, 'r2')).toEqual([]);
      // The claimer died: once the lease runs out, another replica takes it.
      expect((await claim(store, 'r2', T0 + 30_000)).map((s) => s.id)).toEqual(['due', 'later']);
    });

    it('settles a claim once: moved on, paused or deleted, and never by a replica that lost it', async () => {
      await store.addSchedule(aSchedule('one'), 10);
      await store.addSchedule(aSchedule('rec', { cron: '*/5 * * * *' }), 10);
      await claim(store, 'r1');
      await claim(store, 'r2', T0 + 30_000); // r1's lease ran out; r2 holds both now
      expect(await settleOne(store, { id: 'rec', owner: 'r1', dueAt: T0, next: { at: T0 + 300_000 } })).toBe(
        false,
      );
      expect(await settleOne(store, { id: 'one', owner: 'r1', dueAt: T0, next: null })).toBe(false);
      expect(await settleOne(store, { id: 'rec', owner: 'r2', dueAt: T0, next: { at: T0 + 300_000 } })).toBe(
        true,
      );
      expect(await settleOne(store, { id: 'rec', owner: 'r2', dueAt: T0, next: { at: T0 + 600_000 } })).toBe(
        false,
      );
      expect(await settleOne(store, { id: 'one', owner: 'r2', dueAt: T0, next: null })).toBe(true);
      expect(await store.schedule('one')).toBeUndefined();
      expect((await store.schedule('rec'))?.nextAt).toBe(T0 + 300_000);
      // Moved on, it is free to claim again when due.
      expect((await claim(store, 'r1', T0 + 300_000)).map((s) => s.id)).toEqual(['rec']);
      await settleOne(store, {
        id: 'rec',
        owner: 'r1',
        dueAt: T0 + 300_000,
        next: { at: T0 + 600_000, paused: true },
      });
      expect((await store.schedule('rec'))?.paused).toBe(true);
      expect(await claim(store, 'r1', T0 + 900_000)).toEqual([]);
    });

    it('settles a batch at once, leaving out the claims lost meanwhile', async () => {
      await store.addSchedule(aSchedule('a'), 10);
      await store.addSchedule(aSchedule('b'), 10);
      await store.addSchedule(aSchedule('c', { cron: '*/5 * * * *' }), 10);
      await claim(store, 'r1');
      await store.deleteSchedule('b'); // cancelled while firing
      const settled = await store.settleSchedules('r1', [
        { id: 'a', dueAt: T0, next: null },
        { id: 'b', dueAt: T0, next: null },
        { id: 'c', dueAt: T0, next: { at: T0 + 300_000 } },
      ]);
      expect(settled.sort()).toEqual(['a', 'c']);
      expect((await store.allSchedules()).map((s) => [s.id, s.nextAt])).toEqual([['c', T0 + 300_000]]);
      expect(await store.settleSchedules('r1', [])).toEqual([]);
    });

    it('gives back a stopping replica’s claims at once', async () => {
      await store.addSchedule(aSchedule('a'), 10);
      await claim(store, 'r1');
      await store.releaseScheduleClaims('r1');
      expect((await claim(store, 'r2')).map((s) => s.id)).toEqual(['a']);
    });

    it('splits a burst between two replicas claiming at once, none twice', async () => {
      for (let i = 0; i < 40; i++)
        await store.addSchedule(
          aSchedule(`s${i}`, { creator: { ...aSchedule('x').creator, principal: `discord:u${i}` } }),
          10,
        );
      const second = await f.reopen();
      const [a, b] = await Promise.all([
        store.claimDueSchedules({ now: T0, leaseMs: 30_000, owner: 'r1', platforms: ['discord'], limit: 25 }),
        second.claimDueSchedules({
          now: T0,
          leaseMs: 30_000,
          owner: 'r2',
          platforms: ['discord'],
          limit: 25,
        }),
      ]);
      const ids = [...a, ...b].map((s) => s.id);
      expect(new Set(ids).size).toBe(ids.length);
      const rest = await claim(store, 'r3');
      expect(ids.length + rest.length).toBe(40);
    });

    it('keeps schedules across a reopen', async () => {
      await store.addSchedule(aSchedule('a', { cron: '0 9 * * *' }), 10);
      const again = await f.reopen();
      expect(await again.allSchedules()).toEqual([aSchedule('a', { cron: '0 9 * * *' })]);
    });
  });
}
