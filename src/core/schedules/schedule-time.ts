import { Cron } from 'croner';

/** The least time between two runs of one recurring schedule. */
export const MIN_GAP_MS = 5 * 60_000;

/** When a schedule runs: once at `at`, or on `cron` from `at` on. */
export type When = { cron: null; at: number } | { cron: string; at: number };

/** A time the person gave that cannot be used, with the one sentence that says why. */
export class WhenError extends Error {}

const RELATIVE = /^in\s+(\d+(?:\.\d+)?)\s*(m|min|mins|minutes?|h|hrs?|hours?|d|days?|w|weeks?)$/i;
const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const ISO = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** Whether `zone` is an IANA time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Whether `text` reads as a cron expression (five or six fields) rather than a time. */
export function looksLikeCron(text: string): boolean {
  const fields = text.trim().split(/\s+/);
  return fields.length >= 5 && fields.length <= 6 && !ISO.test(text.trim());
}

/**
 * Reads `when` (an ISO time, read in `zone` when it has no offset; `in 2 hours`; or a cron expression) and
 * `repeat` (a cron expression) into when the schedule first runs, after `now`. Throws a WhenError saying in
 * one sentence what is wrong: a bad expression, a past time, runs closer than five minutes apart.
 */
export function parseWhen(
  input: { when?: string | undefined; repeat?: string | undefined },
  zone: string,
  now: number,
): When {
  const when = input.when?.trim() || undefined;
  const repeat = input.repeat?.trim() || (when && looksLikeCron(when) ? when : undefined);
  if (repeat) {
    const cron = cronOf(repeat, zone);
    const start = when && when !== repeat ? instantOf(when, zone, now) : now;
    const first = nextRun(cron, Math.max(start - 1, now));
    if (first === undefined) throw new WhenError(`The cron expression "${repeat}" never runs again.`);
    checkGap(cron, repeat, first);
    return { cron: repeat, at: first };
  }
  if (!when)
    throw new WhenError(
      'Say when: an ISO time such as 2026-12-04T09:00, "in 2 hours", or a cron expression.',
    );
  const at = instantOf(when, zone, now);
  if (at <= now)
    throw new WhenError(
      `${formatInZone(at, zone)} has already passed; it is now ${formatInZone(now, zone)}.`,
    );
  return { cron: null, at };
}

/** The next run of `cron` (read in `zone`) after a run due at `dueAt`, never sooner than five minutes after it, and after `now`. */
export function nextAfter(cron: string, zone: string, dueAt: number, now: number): number | undefined {
  return nextRun(cronOf(cron, zone), Math.max(now, dueAt + MIN_GAP_MS - 1));
}

/** A time as people read it in `zone`: `Fri 4 Dec 2026, 09:00 (Europe/Berlin, GMT+01:00)`. */
export function formatInZone(at: number, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    })
      .formatToParts(new Date(at))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.weekday} ${parts.day} ${parts.month} ${parts.year}, ${parts.hour}:${parts.minute} (${zone}, ${parts.timeZoneName})`;
}

/** Parsed expressions by zone and text: many schedules share a few, and a burst reads each once. */
const parsed = new Map<string, Cron>();
const PARSED_MAX = 1_000;

function cronOf(expression: string, zone: string): Cron {
  const id = `${zone} ${expression}`;
  const known = parsed.get(id);
  if (known) return known;
  try {
    const cron = new Cron(expression, { timezone: zone, paused: true });
    if (parsed.size >= PARSED_MAX) parsed.delete(parsed.keys().next().value as string);
    parsed.set(id, cron);
    return cron;
  } catch {
    throw new WhenError(
      `"${expression}" is not a cron expression I can read; use five fields, e.g. "0 9 * * 1" for Mondays at 09:00.`,
    );
  }
}

function nextRun(cron: Cron, after: number): number | undefined {
  return cron.nextRun(new Date(after))?.getTime();
}

/** Refuses expressions whose runs come closer than MIN_GAP_MS (checked over their next runs). */
function checkGap(cron: Cron, expression: string, first: number): void {
  let previous = first;
  for (let i = 0; i < 48; i++) {
    const next = nextRun(cron, previous);
    if (next === undefined) return;
    if (next - previous < MIN_GAP_MS) {
      throw new WhenError(
        `"${expression}" runs more often than once every 5 minutes, which is the most allowed.`,
      );
    }
    previous = next;
  }
}

/** An ISO time (in `zone` when it has no offset) or `in N units`, as ms. */
function instantOf(text: string, zone: string, now: number): number {
  const relative = RELATIVE.exec(text);
  if (relative) {
    const unit = relative[2]!.toLowerCase()[0]!;
    return now + Math.round(Number(relative[1]) * UNIT_MS[unit === 'm' ? 'm' : unit]!);
  }
  if (!ISO.test(text)) {
    throw new WhenError(
      `"${text}" is not a time I can read; use an ISO time such as 2026-12-04T09:00, "in 2 hours", or a cron expression.`,
    );
  }
  const iso = text.length === 10 ? `${text}T00:00:00` : text.replace(' ', 'T');
  try {
    const at = new Cron(iso, { timezone: zone, paused: true }).nextRun(new Date(0))?.getTime();
    if (at !== undefined) return at;
  } catch {
    // falls through to the sentence below
  }
  throw new WhenError(`"${text}" is not a valid date and time.`);
}
