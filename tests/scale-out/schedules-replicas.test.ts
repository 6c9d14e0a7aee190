import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Store } from '../../src/core/ports/store.js';
import { SCHEDULE_LEASE_MS } from '../../src/core/schedules/create-scheduler.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { parsePostgresUrl } from '../../src/store/postgres/postgres-url.js';
import { aSchedule } from '../contract/schedules-contract.js';
import { manualClock, startTestScheduler } from '../core/schedules/scheduler-fixture.js';
import { dropSchema, freshSchema, postgresSuite, withSchema } from '../store/postgres-test-db.js';

const T0 = Date.UTC(2026, 11, 3, 9, 0);

postgresSuite('scheduled questions across replicas on Postgres', (url) => {
  let schema: string;
  const opened: Store[] = [];
  const replica = async () => {
    const store = await openPostgresStore(parsePostgresUrl(withSchema(url, schema), 'TEST_DATABASE_URL'), {
      poolSize: 4,
    });
    opened.push(store);
    return store;
  };
  beforeEach(() => {
    schema = freshSchema();
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close().catch(() => undefined);
    await dropSchema(url, schema);
  });

  it('fires each of 600 runs due in the same minute exactly once across three replicas', async () => {
    const first = await replica();
    for (let i = 0; i < 600; i++) {
      const creator = { ...aSchedule('x').creator, principal: `discord:u${i % 50}` };
      await first.addSchedule(
        aSchedule(`s${i}`, {
          creator,
          key: i % 2 ? 'slack:T:C1' : 'discord:g:c1',
          nextAt: T0 + (i % 60) * 1000,
        }),
        1000,
      );
    }
    const clock = manualClock(T0 + 59_000);
    const replicas = [
      startTestScheduler(first, clock.now, { owner: 'a' }),
      startTestScheduler(await replica(), clock.now, { owner: 'b' }),
      startTestScheduler(await replica(), clock.now, { owner: 'c' }),
    ];
    // Each ticks twice at once, as their poll timers would.
    const started = await Promise.all(replicas.flatMap((r) => [r.scheduler.tick(), r.scheduler.tick()]));
    const ids = replicas.flatMap((r) => r.delivered.runs.map((run) => run.schedule.id));
    expect(started.reduce((a, b) => a + b)).toBe(600);
    expect(ids).toHaveLength(600);
    expect(new Set(ids).size).toBe(600);
    expect(replicas.filter((r) => r.delivered.runs.length > 0).length).toBeGreaterThan(1);
    expect(await first.allSchedules()).toEqual([]);
  });

  it('a replica killed after claiming: its runs go to a survivor once the lease runs out, and only once', async () => {
    const doomed = await replica();
    await doomed.addSchedule(aSchedule('r1'), 10);
    await doomed.addSchedule(aSchedule('w1', { cron: '*/10 * * * *', timezone: 'UTC' }), 10);
    expect(
      await doomed.claimDueSchedules({
        now: T0,
        leaseMs: SCHEDULE_LEASE_MS,
        owner: 'doomed',
        platforms: ['discord'],
        limit: 10,
      }),
    ).toHaveLength(2);
    await doomed.close(); // killed: it never settles
    const clock = manualClock(T0 + 1_000);
    const survivor = startTestScheduler(await replica(), clock.now, { owner: 'survivor' });
    expect(await survivor.scheduler.tick()).toBe(0);
    clock.set(T0 + SCHEDULE_LEASE_MS);
    expect(await survivor.scheduler.tick()).toBe(2);
    expect(await survivor.scheduler.tick()).toBe(0);
    expect(survivor.delivered.runs.map((r) => r.schedule.id).sort()).toEqual(['r1', 'w1']);
  });

  it('a replica that stops gives its claims back, so another fires them at once', async () => {
    const store = await replica();
    await store.addSchedule(aSchedule('r1'), 10);
    const clock = manualClock(T0);
    const leaving = startTestScheduler(store, clock.now, { owner: 'leaving' });
    await store.claimDueSchedules({
      now: T0,
      leaseMs: SCHEDULE_LEASE_MS,
      owner: 'leaving',
      platforms: ['discord'],
      limit: 10,
    });
    await leaving.scheduler.stop();
    const other = startTestScheduler(await replica(), clock.now, { owner: 'other' });
    expect(await other.scheduler.tick()).toBe(1);
  });
});
