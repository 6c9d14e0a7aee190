import { describe, expect, it } from 'vitest';
import { dayOf, formatClock, monthOf } from '../../../src/core/governance/zoned-time.js';

const iso = (ms: number) => new Date(ms).toISOString();

describe('calendar days in a time zone', () => {
  it('start and end at local midnight', () => {
    const day = dayOf(Date.parse('2026-12-01T16:30:00Z'), 'Asia/Tokyo'); // 01:30 on Dec 2 in Tokyo
    expect([iso(day.start), iso(day.end)]).toEqual(['2026-12-01T15:00:00.000Z', '2026-12-02T15:00:00.000Z']);
  });

  it('are 23 hours long on the day clocks go forward, and 25 on the day they go back', () => {
    const spring = dayOf(Date.parse('2026-03-29T12:00:00Z'), 'Europe/Berlin');
    expect([iso(spring.start), iso(spring.end)]).toEqual([
      '2026-03-28T23:00:00.000Z',
      '2026-03-29T22:00:00.000Z',
    ]);
    const autumn = dayOf(Date.parse('2026-10-25T12:00:00Z'), 'Europe/Berlin');
    expect(autumn.end - autumn.start).toBe(25 * 3_600_000);
  });

  it('make months that cross a year', () => {
    const month = monthOf(Date.parse('2026-12-15T00:00:00Z'), 'UTC');
    expect([iso(month.start), iso(month.end)]).toEqual([
      '2026-12-01T00:00:00.000Z',
      '2027-01-01T00:00:00.000Z',
    ]);
  });

  it('name a time later today by the clock, and another day with its date', () => {
    const now = Date.parse('2026-12-01T10:00:00Z');
    expect(formatClock(Date.parse('2026-12-01T11:05:00Z'), now, 'UTC')).toBe('11:05');
    expect(formatClock(Date.parse('2026-12-02T00:00:00Z'), now, 'UTC')).toBe('Wed 2 Dec, 00:00');
  });
});
