import { describe, expect, it } from 'vitest';
import { formatInZone, nextAfter, parseWhen, WhenError } from '../../../src/core/schedules/schedule-time.js';

const iso = (ms: number) => new Date(ms).toISOString();

describe('schedule times', () => {
  const now = Date.UTC(2026, 11, 3, 8, 0); // 09:00 in Berlin

  it('reads a delay, an ISO time in the person’s zone, an offset, and a cron expression', () => {
    expect(parseWhen({ when: 'in 2 minutes' }, 'Europe/Berlin', now)).toEqual({
      cron: null,
      at: now + 120_000,
    });
    expect(iso(parseWhen({ when: '2026-12-04T09:00' }, 'Europe/Berlin', now).at)).toBe(
      '2026-12-04T08:00:00.000Z',
    );
    expect(iso(parseWhen({ when: '2026-12-04T09:00' }, 'America/New_York', now).at)).toBe(
      '2026-12-04T14:00:00.000Z',
    );
    expect(iso(parseWhen({ when: '2026-12-04T09:00Z' }, 'Europe/Berlin', now).at)).toBe(
      '2026-12-04T09:00:00.000Z',
    );
    const weekly = parseWhen({ when: '0 9 * * 1' }, 'Europe/Berlin', now);
    expect(weekly.cron).toBe('0 9 * * 1');
    expect(iso(weekly.at)).toBe('2026-12-07T08:00:00.000Z');
    const repeat = parseWhen({ repeat: '0 9 * * 1', when: '2026-12-10T00:00' }, 'Europe/Berlin', now);
    expect(iso(repeat.at)).toBe('2026-12-14T08:00:00.000Z');
  });

  it('refuses, in one sentence, a past time, an unreadable time or cron, and runs closer than 5 minutes', () => {
    const refusal = (input: Parameters<typeof parseWhen>[0]) => {
      try {
        parseWhen(input, 'Europe/Berlin', now);
      } catch (err) {
        expect(err).toBeInstanceOf(WhenError);
        return (err as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refusal({ when: '2026-12-02T09:00' })).toMatch(
      /^Wed 2 Dec 2026, 09:00 .* has already passed; it is now Thu 3 Dec 2026, 09:00/,
    );
    expect(refusal({ when: 'tomorrowish' })).toMatch(/is not a time I can read/);
    expect(refusal({ repeat: '61 * * * *' })).toMatch(/is not a cron expression I can read/);
    expect(refusal({ repeat: '* * * * *' })).toMatch(/more often than once every 5 minutes/);
    expect(refusal({ repeat: '0,3 9 * * *' })).toMatch(/more often than once every 5 minutes/);
    expect(refusal({})).toMatch(/^Say when/);
  });

  it('fires a 02:30 daily run once on the spring-forward day, at 03:00, and once on the fall-back day', () => {
    const zone = 'Europe/Berlin';
    const first = parseWhen({ repeat: '30 2 * * *' }, zone, Date.UTC(2026, 2, 27, 12)).at;
    expect(formatInZone(first, zone)).toMatch(/^Sat 28 Mar 2026, 02:30/);
    const spring = nextAfter('30 2 * * *', zone, first, first)!;
    expect(formatInZone(spring, zone)).toMatch(/^Sun 29 Mar 2026, 03:00 .*GMT\+02:00/);
    const after = nextAfter('30 2 * * *', zone, spring, spring)!;
    expect(formatInZone(after, zone)).toMatch(/^Mon 30 Mar 2026, 02:30/);

    const fall = parseWhen({ repeat: '30 2 * * *' }, zone, Date.UTC(2026, 9, 24, 12)).at;
    expect(iso(fall)).toBe('2026-10-25T00:30:00.000Z'); // the first 02:30 (CEST) of the fall-back night
    const next = nextAfter('30 2 * * *', zone, fall, fall)!;
    expect(iso(next)).toBe('2026-10-26T01:30:00.000Z'); // not again at the second 02:30 (CET) that night
  });

  it('keeps Monday 09:00 in New York across the DST change, and never fires sooner than 5 minutes after a run', () => {
    const zone = 'America/New_York';
    const a = parseWhen({ repeat: '0 9 * * 1' }, zone, Date.UTC(2026, 2, 1)).at;
    const b = nextAfter('0 9 * * 1', zone, a, a)!;
    expect([iso(a), iso(b)]).toEqual(['2026-03-02T14:00:00.000Z', '2026-03-09T13:00:00.000Z']);
    // Fired late (the bot was busy): the next run is the next one after now, not a burst of missed ones.
    const late = nextAfter(
      '*/5 * * * *',
      'UTC',
      Date.UTC(2026, 0, 1, 10, 0),
      Date.UTC(2026, 0, 1, 10, 12, 30),
    )!;
    expect(iso(late)).toBe('2026-01-01T10:15:00.000Z');
  });
});
