import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger.js';
import type { Store } from '../../../src/core/ports/store.js';
import type { PlatformRights } from '../../../src/core/ports/system-run-delivery.js';
import { createScheduler, SCHEDULE_LEASE_MS } from '../../../src/core/schedules/create-scheduler.js';
import { MIN_GAP_MS, nextAfter } from '../../../src/core/schedules/schedule-time.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { aSchedule } from '../../contract/schedules-contract.js';
import { manualClock, recordingDelivery, startTestScheduler } from './scheduler-fixture.js';

const T0 = Date.UTC(2026, 11, 3, 9, 0);

describe('scheduler', () => {
  let dir: string;
  let store: Store;
  const opened: Store[] = [];
  const open = () => {
    const s = openSqliteStore(join(dir, 'bot.db'));
    opened.push(s);
    return s;
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-scheduler-'));
    store = open();
  });
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fires a reminder once when its time comes, as its creator, and forgets it', async () => {
    const clock = manualClock(T0 - 60_000);
    const { scheduler, delivered } = startTestScheduler(store, clock.now);
    await store.addSchedule(aSchedule('r1'), 10);
    expect(await scheduler.tick()).toBe(0);
    clock.set(T0);
    expect(await scheduler.tick()).toBe(1);
    expect(await scheduler.tick()).toBe(0);
    expect(delivered.runs).toHaveLength(1);
    expect(delivered.runs[0]).toMatchObject({
      dueAt: T0,
      reminder: true,
      asker: { principal: 'discord:u1', userId: 'u1' },
    });
    expect(await store.schedule('r1')).toBeUndefined();
  });

  it('moves a recurring question to its next time after each run', async () => {
    const clock = manualClock(T0);
    const { scheduler, delivered } = startTestScheduler(store, clock.now);
    await store.addSchedule(aSchedule('w', { cron: '0 10 * * *', timezone: 'Europe/Berlin' }), 10);
    await scheduler.tick();
    expect((await store.schedule('w'))?.nextAt).toBe(Date.UTC(2026, 11, 4, 9, 0));
    clock.set(Date.UTC(2026, 11, 4, 9, 0));
    await scheduler.tick();
    expect(delivered.runs.map((r) => [r.dueAt, r.reminder])).toEqual([
      [T0, false],
      [Date.UTC(2026, 11, 4, 9, 0), false],
    ]);
  });

  it('hands the run of a replica killed after claiming to a survivor once the lease runs out, once', async () => {
    const clock = manualClock(T0);
    await store.addSchedule(aSchedule('r1'), 10);
    // The dead replica claimed and never settled.
    await store.claimDueSchedules({
      now: T0,
      leaseMs: SCHEDULE_LEASE_MS,
      owner: 'dead',
      platforms: ['discord'],
      limit: 10,
    });
    const { scheduler, delivered } = startTestScheduler(open(), clock.now, { owner: 'survivor' });
    expect(await scheduler.tick()).toBe(0);
    clock.advance(SCHEDULE_LEASE_MS);
    expect(await scheduler.tick()).toBe(1);
    expect(await store.settleSchedules('dead', [{ id: 'r1', dueAt: T0, next: null }])).toEqual([]);
    expect(delivered.runs).toHaveLength(1);
  });

  it('survives a restart: a schedule made before it fires after it', async () => {
    const clock = manualClock(T0 - 1);
    const first = startTestScheduler(store, clock.now);
    await store.addSchedule(aSchedule('r1'), 10);
    await first.scheduler.stop();
    await store.close();
    const again = open();
    const second = startTestScheduler(again, clock.now);
    clock.set(T0);
    expect(await second.scheduler.tick()).toBe(1);
    expect(first.delivered.runs).toHaveLength(0);
  });

  it('fires a run missed while down once at start-up when late by less than the catch-up, else skips it with a note', async () => {
    const clock = manualClock(T0 + 30 * 60_000);
    await store.addSchedule(aSchedule('recent'), 10);
    await store.addSchedule(
      aSchedule('old', { nextAt: T0 - 2 * 3_600_000, cron: '0 * * * *', timezone: 'UTC' }),
      10,
    );
    await store.addSchedule(aSchedule('old-once', { nextAt: T0 - 2 * 3_600_000 }), 10);
    const { scheduler, delivered } = startTestScheduler(store, clock.now, { catchUpMs: 3_600_000 });
    expect(await scheduler.tick()).toBe(1);
    await scheduler.idle();
    expect(delivered.runs.map((r) => r.schedule.id)).toEqual(['recent']);
    expect(delivered.notes.map((n) => n.schedule.id).sort()).toEqual(['old', 'old-once']);
    expect(delivered.notes.find((n) => n.schedule.id === 'old')?.text).toMatch(
      /was due on Thu 3 Dec 2026, 07:00 .* so it was skipped\. It runs next on Thu 3 Dec 2026, 10:00/,
    );
    expect((await store.schedule('old'))?.nextAt).toBe(T0 + 3_600_000);
    expect(await store.schedule('old-once')).toBeUndefined();
    expect(await scheduler.tick()).toBe(0);
  });

  it('pauses, and tells, a creator no longer allowed to ask there instead of running', async () => {
    const clock = manualClock(T0);
    await store.addSchedule(aSchedule('w', { cron: '0 * * * *', timezone: 'UTC' }), 10);
    const { scheduler, delivered } = startTestScheduler(store, clock.now, {
      blocked: (asker) => asker.principal === 'discord:u1',
    });
    expect(await scheduler.tick()).toBe(0);
    await scheduler.idle();
    expect(delivered.runs).toEqual([]);
    expect(delivered.notes[0]?.text).toMatch(/did not run: you can no longer ask me there, so it is paused/);
    expect((await store.schedule('w'))?.paused).toBe(true);
    clock.advance(3_600_000);
    expect(await scheduler.tick()).toBe(0);
    expect(delivered.notes).toHaveLength(1);
  });

  it('fires a 02:30 Berlin daily question once on the spring-forward night (at 03:00) and once on the fall-back night', async () => {
    const clock = manualClock(0);
    const { scheduler, delivered } = startTestScheduler(store, clock.now);
    const night = async (from: number, to: number) => {
      clock.set(from);
      await store.addSchedule(
        aSchedule(`d${from}`, {
          cron: '30 2 * * *',
          timezone: 'Europe/Berlin',
          nextAt: nextAfter('30 2 * * *', 'Europe/Berlin', from - MIN_GAP_MS, from),
        }),
        10,
      );
      // The clock moves a minute at a time through the night, ticking as the poll would.
      for (let t = from; t <= to; t += 60_000) {
        clock.set(t);
        await scheduler.tick();
      }
      await store.deleteSchedule(`d${from}`);
    };
    await night(Date.UTC(2026, 2, 28, 12), Date.UTC(2026, 2, 30, 6));
    await night(Date.UTC(2026, 9, 24, 12), Date.UTC(2026, 9, 26, 6));
    expect(delivered.runs.map((r) => new Date(r.dueAt).toISOString())).toEqual([
      '2026-03-29T01:00:00.000Z', // 03:00 CEST: 02:30 does not exist that night
      '2026-03-30T00:30:00.000Z',
      '2026-10-25T00:30:00.000Z', // the first 02:30 (CEST); not again at the second (CET)
      '2026-10-26T01:30:00.000Z',
    ]);
  });

  it('fires each of 300 runs once when three replicas on one database tick together', async () => {
    const clock = manualClock(T0);
    for (let i = 0; i < 300; i++)
      await store.addSchedule(aSchedule(`s${i}`, { key: i % 2 ? 'slack:T:C' : 'discord:g:c' }), 1000);
    const replicas = [store, open(), open()].map((s, i) =>
      startTestScheduler(s, clock.now, { owner: `r${i}` }),
    );
    const started = await Promise.all(replicas.map((r) => r.scheduler.tick()));
    const ids = replicas.flatMap((r) => r.delivered.runs.map((run) => run.schedule.id));
    expect(started.reduce((a, b) => a + b)).toBe(300);
    expect(new Set(ids).size).toBe(300);
  });
});

describe('scheduler: the creator’s rights at each run', () => {
  const setup = (lookUp?: () => Promise<PlatformRights>, blocked = false) => {
    const dir = mkdtempSync(join(tmpdir(), 'thinkthread-rights-'));
    const store = openSqliteStore(join(dir, 'bot.db'));
    const lines: string[] = [];
    const scheduler = createScheduler({
      store,
      now: () => T0,
      pollMs: 0,
      catchUpMs: 3_600_000,
      allowed: async (asker) => !blocked || (asker.roles ?? []).includes('r-allowed'),
      logger: createLogger({ level: 'info', secrets: [], write: (line) => lines.push(line) }),
    });
    const delivered = recordingDelivery();
    scheduler.start({ discord: lookUp ? { ...delivered, lookUp } : delivered });
    const creator = { ...aSchedule('x').creator, roles: ['r-allowed'], platformAdmin: true };
    const close = async () => {
      await scheduler.stop();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    };
    return { store, scheduler, delivered, lines, creator, close };
  };

  it('asks as the creator with the rights the platform gives them today', async () => {
    const t = setup(async () => ({ platformAdmin: false, roles: ['r-now'] }));
    await t.store.addSchedule(aSchedule('r1', { creator: t.creator }), 10);
    expect(await t.scheduler.tick()).toBe(1);
    expect(t.delivered.runs[0]?.asker).toMatchObject({ platformAdmin: false, roles: ['r-now'] });
    await t.close();
  });

  it('drops the kept admin status and roles when the platform cannot say, with one log line', async () => {
    const t = setup(async () => {
      throw new Error('503 from the platform');
    });
    await t.store.addSchedule(aSchedule('r1', { creator: t.creator }), 10);
    expect(await t.scheduler.tick()).toBe(1);
    expect(t.delivered.runs[0]?.asker).toMatchObject({ platformAdmin: false, roles: undefined });
    expect(t.lines.filter((l) => l.includes('could not look up a schedule creator'))).toHaveLength(1);
    await t.close();
  });

  it('keeps a run the unconfirmed rights would refuse for a later try, neither paused nor told', async () => {
    const t = setup(async () => {
      throw new Error('timeout');
    }, true);
    await t.store.addSchedule(aSchedule('r1', { creator: t.creator }), 10);
    expect(await t.scheduler.tick()).toBe(0);
    expect(t.delivered.notes).toEqual([]);
    expect((await t.store.schedule('r1'))?.paused).toBe(false);
    await t.close();
  });
});
