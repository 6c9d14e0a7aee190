/** A formatter of weekday, date, time and UTC offset in `timeZone`; undefined for a zone Intl does not know. */
export function wallClockFormat(
  timeZone: string | undefined,
  seconds = false,
): Intl.DateTimeFormat | undefined {
  try {
    return new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      ...(seconds ? { second: '2-digit' } : {}),
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
  } catch {
    return undefined;
  }
}

/** What the clock reads at `date`: `Thursday, 3 December 2026, 09:05` (with `:07` when it shows seconds), and `GMT+01:00`. */
export function readWallClock(format: Intl.DateTimeFormat, date: Date): { text: string; offset: string } {
  const parts = Object.fromEntries(format.formatToParts(date).map((p) => [p.type, p.value]));
  const time = `${parts.hour}:${parts.minute}${parts.second ? `:${parts.second}` : ''}`;
  return {
    text: `${parts.weekday}, ${parts.day} ${parts.month} ${parts.year}, ${time}`,
    offset: parts.timeZoneName ?? '',
  };
}
