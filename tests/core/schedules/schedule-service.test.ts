import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Asker } from '../../../src/core/governance/asker.js';
import type { Store } from '../../../src/core/ports/store.js';
import { runScheduleCommand } from '../../../src/core/schedules/schedule-commands.js';
import { createScheduleService } from '../../../src/core/schedules/schedule-service.js';
import type { ScheduleSettings } from '../../../src/core/schedules/schedule-settings.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';

const NOW = Date.UTC(2026, 11, 3, 8, 0);
const ann: Asker = {
  platform: 'slack',
  userId: 'UANN',
  principal: 'slack:T1:UANN',
  channelId: 'C1',
  dm: false,
};
const inDm: Asker = { ...ann, channelId: undefined, dm: true };

describe('schedule service: who may schedule what', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-schedule-service-'));
    store = openSqliteStore(join(dir, 'bot.db'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const service = (settings: Partial<ScheduleSettings> = {}, admins: string[] = [], blocked: string[] = []) =>
    createScheduleService({
      store,
      settings: {
        SCHEDULE_ANYONE: false,
        SCHEDULES_PER_PERSON: 10,
        SCHEDULE_CATCH_UP_MS: 3_600_000,
        DEFAULT_TIMEZONE: 'UTC',
        ...settings,
      },
      isAdmin: async (asker) => admins.includes(asker.principal),
      allowed: async (asker) => !blocked.includes(asker.principal),
      delivers: (platform) => platform === 'slack',
      now: () => NOW,
    });
  const run = (s: ReturnType<typeof service>, asker: Asker, args: string, key = 'slack:T1:C1') =>
    runScheduleCommand(s, { asker, key, author: 'Ann' }, args);

  it('lets anyone set a reminder, but recurring questions in a channel only admins or with SCHEDULE_ANYONE', async () => {
    expect(await run(service(), ann, 'add "in 10 minutes" tea')).toMatch(/^I will remind you "tea"/);
    expect(await run(service(), ann, 'add "0 9 * * 1" weekly')).toMatch(/^Only admins/);
    expect(await run(service({}, ['slack:T1:UANN']), ann, 'add "0 9 * * 1" weekly')).toMatch(
      /^Scheduled "weekly"/,
    );
    expect(await run(service({ SCHEDULE_ANYONE: true }), ann, 'add "0 9 * * 2" weekly')).toMatch(
      /^Scheduled/,
    );
    expect(await run(service(), inDm, 'add "0 9 * * 3" weekly', 'slack:T1:D1')).toMatch(/^Scheduled/);
  });

  it('refuses where the asker may not ask, or where runs cannot be delivered, and a bad zone', async () => {
    expect(await run(service({}, [], ['slack:T1:UANN']), ann, 'add "in 1 hour" x')).toBe(
      'You can’t use this bot here.',
    );
    expect(await run(service(), ann, 'add "in 1 hour" x', 'web:abc')).toBe(
      'Scheduled questions cannot be delivered here.',
    );
    await expect(
      service().add({ asker: ann, settingsKey: 'slack:T1:C1', author: 'Ann' }, 'slack:T1:C1', {
        when: 'in 1 hour',
        question: 'x',
        timezone: 'Mars/Olympus',
      }),
    ).rejects.toThrow('Unknown time zone "Mars/Olympus"; use an IANA name such as "Europe/Paris" or "UTC".');
    expect(await store.allSchedules()).toEqual([]);
  });

  it('reads the time in the zone the person names, and lists it in that zone', async () => {
    const s = service();
    const schedule = await s.add({ asker: ann, settingsKey: 'slack:T1:C1', author: 'Ann' }, 'slack:T1:C1', {
      when: '2026-12-04T09:00',
      question: 'send the report',
      timezone: 'Asia/Tokyo',
    });
    expect(new Date(schedule.nextAt).toISOString()).toBe('2026-12-04T00:00:00.000Z');
    expect(s.confirmation(schedule)).toMatch(/on Fri 4 Dec 2026, 09:00 \(Asia\/Tokyo, GMT\+09:00\)/);
    expect(await run(s, ann, 'list')).toContain(
      '"send the report" by Ann, Fri 4 Dec 2026, 09:00 (Asia/Tokyo',
    );
    expect(await run(s, inDm, 'list', 'slack:T1:D1')).toMatch(/^Yours elsewhere:\n• /);
  });
});
