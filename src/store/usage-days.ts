/**
 * Every UTC offset in use today is a whole number of quarter hours, so a local midnight (and a DST switch)
 * always falls on a quarter-hour boundary: records grouped by quarter hour never straddle two local days.
 */
export const QUARTER_HOUR_MS = 15 * 60_000;

/** A function giving the calendar day (YYYY-MM-DD) of a time in `timeZone`; throws a RangeError for an unknown zone. */
export function dayIn(timeZone: string): (at: number) => string {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  return (at) => {
    const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
    return `${parts.year}-${parts.month}-${parts.day}`;
  };
}
