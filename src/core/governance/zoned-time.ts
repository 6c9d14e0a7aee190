/** Start (inclusive) and end (exclusive) of a period, ms since the epoch. */
export interface Period {
  start: number;
  end: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone named, or the system's own when none is (as DEFAULT_TIMEZONE does). */
function zoneOf(timeZone: string | undefined): string {
  return timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

function partsIn(
  ms: number,
  timeZone: string | undefined,
): { y: number; m: number; d: number; h: number; mi: number; s: number } {
  const zone = zoneOf(timeZone);
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, format);
  }
  const get = (type: string) => Number(format.formatToParts(ms).find((p) => p.type === type)?.value);
  return {
    y: get('year'),
    m: get('month'),
    d: get('day'),
    h: get('hour'),
    mi: get('minute'),
    s: get('second'),
  };
}

/** How far `timeZone`'s wall clock is ahead of UTC at `at`, in ms (undefined: the system's zone). */
export function zoneOffsetMs(timeZone: string | undefined, at: number): number {
  const p = partsIn(at, timeZone);
  return Date.UTC(p.y, p.m - 1, p.d, p.h, p.mi, p.s) - Math.floor(at / 1000) * 1000;
}

/** The instant when the wall clock in `timeZone` reads y-m-d 00:00 (the first such instant across DST). */
function localMidnight(y: number, m: number, d: number, timeZone: string | undefined): number {
  const wall = Date.UTC(y, m - 1, d);
  let guess = wall;
  for (let i = 0; i < 3; i++) {
    const p = partsIn(guess, timeZone);
    const offset = Date.UTC(p.y, p.m - 1, p.d, p.h, p.mi, p.s) - guess;
    const next = wall - offset;
    if (next === guess) break;
    guess = next;
  }
  return guess;
}

/** The calendar day holding `now` in `timeZone` (undefined: the system's zone). */
export function dayOf(now: number, timeZone: string | undefined): Period {
  const { y, m, d } = partsIn(now, timeZone);
  return { start: localMidnight(y, m, d, timeZone), end: localMidnight(y, m, d + 1, timeZone) };
}

/** The calendar month holding `now` in `timeZone`. */
export function monthOf(now: number, timeZone: string | undefined): Period {
  const { y, m } = partsIn(now, timeZone);
  return { start: localMidnight(y, m, 1, timeZone), end: localMidnight(y, m + 1, 1, timeZone) };
}

/** `14:05`, or `Tue 2 Dec 14:05` when `at` is not on the same day as `now`, in `timeZone`. */
export function formatClock(at: number, now: number, timeZone: string | undefined): string {
  const zone = zoneOf(timeZone);
  const sameDay = dayOf(now, timeZone).end > at;
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    ...(sameDay ? {} : { weekday: 'short', day: 'numeric', month: 'short' }),
  }).format(at);
}
