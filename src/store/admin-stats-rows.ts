import type { AdminStatsQuery } from '../core/ports/admin-stats-store.js';

/**
 * Run durations are grouped by two significant digits, so percentiles come from a few hundred groups
 * instead of every record: the bucket is `digits * 100 + the first two digits` of the duration in ms.
 */
export function bucketMs(bucket: number): number {
  const digits = Math.floor(bucket / 100);
  const lead = bucket % 100;
  return digits >= 2 ? lead * 10 ** (digits - 2) : lead;
}

/** The day number of `at` (ms since the epoch) moved by `offsetMs`. */
export function dayNumber(at: number, offsetMs: number): number {
  return Math.floor((at + offsetMs) / 86_400_000);
}

/** Sorted distinct non-empty strings. */
export function distinct(values: Iterable<string | null>): string[] {
  return [...new Set([...values].filter((v): v is string => Boolean(v)))].sort();
}

/** The named parameters of the admin page's queries, alike in both engines: the period in ms, whole hours and days, and the filters. */
export function statsParams(query: AdminStatsQuery, top: number): Record<string, unknown> {
  return {
    since: query.since,
    until: query.until,
    sinceHour: Math.floor(query.since / 3_600_000),
    untilHour: Math.ceil(query.until / 3_600_000),
    sinceDay: Math.floor(query.since / 86_400_000),
    untilDay: Math.floor((query.until - 1) / 86_400_000),
    offset: query.offsetMs,
    platform: query.platform ?? null,
    key: query.key ?? null,
    userId: query.userId ?? null,
    model: query.model ?? null,
    top,
  };
}
