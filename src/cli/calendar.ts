import { dayIn } from '../store/usage-days.js';

const HOUR_MS = 3_600_000;

/** True for a real calendar day written YYYY-MM-DD. */
export function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const at = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(at) && new Date(at).toISOString().startsWith(text);
}

/** The calendar day after `day` (both YYYY-MM-DD). */
export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 24 * HOUR_MS).toISOString().slice(0, 10);
}

/**
 * The first instant (ms since the epoch) of `day` in `timeZone`: usually local midnight, 01:00 where a
 * DST switch skips midnight. Found by bisection, since every UTC offset lies within ±15 hours.
 */
export function startOfDay(day: string, timeZone: string): number {
  const dayOf = dayIn(timeZone);
  const utcMidnight = Date.parse(`${day}T00:00:00Z`);
  let before = utcMidnight - 15 * HOUR_MS;
  let after = utcMidnight + 15 * HOUR_MS;
  while (after - before > 1) {
    const middle = Math.floor((before + after) / 2);
    if (dayOf(middle) < day) before = middle;
    else after = middle;
  }
  return after;
}
