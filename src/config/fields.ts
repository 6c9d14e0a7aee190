import { z } from 'zod';
import { parseRate } from '../core/governance/rate.js';
import { parseDuration } from '../core/util/duration.js';

// Node timers take at most 2^31-1 ms; a larger value would fire at once.
/** A whole number from `min` up to the longest timer Node can set. */
export const int = (fallback: number, min = 1) =>
  z.coerce.number().int().min(min).max(2_147_483_647).default(fallback);

/** A TCP port; 0 lets the system pick one. */
export const port = () => z.coerce.number().int().min(0).max(65_535);

/** A duration such as `30s`, `10m`, `24h` or `7d`, parsed to milliseconds. */
export const duration = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      const ms = parseDuration(text);
      if (ms === undefined)
        ctx.addIssue({ code: 'custom', message: 'must be a duration, e.g. 30s, 10m, 24h or 7d' });
      return ms ?? 0;
    });

/** An http:// or https:// URL. */
export const httpUrl = () => z.url({ protocol: /^https?$/ });

/** An http(s) URL with a default. */
export const url = (fallback: string) => httpUrl().default(fallback);

/** Trimmed text; empty means unset. */
export const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

/** An http(s) URL; empty means unset. */
export const optionalUrl = () => optionalText.pipe(httpUrl().optional());

/** true/false, 1/0, yes/no or on/off. */
export const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => ['true', '1', 'yes', 'on'].includes(v));

/** A secret of at least `min` characters; empty means unset. */
export const secret = (min: number) =>
  optionalText.pipe(
    z.string().min(min, `must be at least ${min} characters (a long random value)`).optional(),
  );

/** `N/minute`, `N/hour`, `N/day` or `off`. */
export const rateLimit = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      const rate = parseRate(text);
      if (rate === undefined) {
        ctx.addIssue({ code: 'custom', message: 'must be N/minute, N/hour, N/day or off (e.g. 30/hour)' });
        return z.NEVER;
      }
      return rate;
    });

/** A price in US dollars; unset means none. */
export const price = z.coerce.number().min(0).optional();

/** A Slack slash command's name, e.g. `/ask`. */
export const slashCommand = (fallback: string) =>
  z
    .string()
    .regex(/^\/[\w-]+$/)
    .default(fallback);

/** The non-empty, trimmed entries of a `sep`-separated setting. */
export const entriesOf = (text: string, sep = ',') =>
  text
    .split(sep)
    .map((entry) => entry.trim())
    .filter(Boolean);

/** Comma-separated entries, as a list. */
export const globList = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text) => entriesOf(text));

/** An IANA time zone this runtime knows; empty means unset. */
export const timeZone = () =>
  optionalText.refine((zone) => zone === undefined || isTimeZone(zone), {
    message:
      'is not a time zone this runtime knows; use an IANA name such as Europe/Berlin or America/New_York',
  });

/** Whether the runtime knows `zone` (an IANA name such as Europe/Berlin). */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
