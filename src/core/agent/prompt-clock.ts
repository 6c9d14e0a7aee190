import { readWallClock, wallClockFormat } from '../util/wall-clock.js';

// Built once: `toLocaleDateString` with options builds a new Intl formatter per call (~130 µs, the loop's
// largest own cost per run in bench/loop-cost.ts).
const DATE_FORMAT = new Intl.DateTimeFormat('en-GB', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

const DAY_MS = 86_400_000;
let formattedDay = Number.NaN;
let formatted = '';

/** `Sunday, 29 November 2026 (UTC)`: enough for the model to know what "today" is. Formatted once a day (~10 µs a call). */
export function formatDate(date: Date): string {
  const day = Math.floor(date.getTime() / DAY_MS);
  if (day !== formattedDay) {
    formatted = `${DATE_FORMAT.format(date)} (UTC)`;
    formattedDay = day;
  }
  return formatted;
}

/** `Current time: Thursday, 3 December 2026, 09:05 (Europe/Berlin, GMT+01:00).` for a date, in `zone`. */
export function timeNow(zone: string | undefined): (date: Date) => string {
  // The zone was checked at start-up (DEFAULT_TIMEZONE); the system's own is the fallback.
  const format = wallClockFormat(zone) ?? (wallClockFormat(undefined) as Intl.DateTimeFormat);
  const name = format.resolvedOptions().timeZone;
  return (date) => {
    const clock = readWallClock(format, date);
    return `Current time: ${clock.text} (${name}, ${clock.offset}).`;
  };
}
