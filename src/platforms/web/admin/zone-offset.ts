/** How far `timeZone`'s wall clock is ahead of UTC at `at`, in ms (the admin page cuts its days with it). */
export function zoneOffsetMs(timeZone: string | undefined, at: number): number {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  });
  const part = (type: string) => Number(format.formatToParts(at).find((p) => p.type === type)?.value);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'));
  return wall - Math.floor(at / 60_000) * 60_000;
}
