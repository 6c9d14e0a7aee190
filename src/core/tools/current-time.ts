import { z } from 'zod';
import { defineTool, ToolInputError } from './define-tool.js';
import type { ToolFactory } from './registry.js';

/** What `current_time` reads from the configuration. */
export interface CurrentTimeSettings {
  /** The zone used when the model names none; the host's zone when unset. */
  DEFAULT_TIMEZONE?: string | undefined;
}

/** `current_time`: today's date, weekday and time in an IANA time zone. */
export const currentTimeTool: ToolFactory<CurrentTimeSettings> = (settings) =>
  defineTool({
    name: 'current_time',
    description:
      "The current date, weekday and time. Defaults to the bot's time zone; pass an IANA zone for another place.",
    input: z.object({
      timezone: z
        .string()
        .trim()
        .max(64)
        .optional()
        .describe('IANA time zone such as "Europe/Paris", "America/New_York" or "UTC"; omit for the default'),
    }),
    execute({ timezone }) {
      const fallback = settings.DEFAULT_TIMEZONE;
      const zone = timezone || fallback || Intl.DateTimeFormat().resolvedOptions().timeZone;
      const format = formatter(zone);
      if (!format) {
        const source = timezone ? '' : ' (the DEFAULT_TIMEZONE setting)';
        throw new ToolInputError(
          `Unknown time zone "${zone}"${source}. Use an IANA name such as "Europe/Paris", "America/New_York" or "UTC".`,
        );
      }
      const parts = Object.fromEntries(format.formatToParts(new Date()).map((p) => [p.type, p.value]));
      // Intl canonicalises some names (Asia/Kolkata → Asia/Calcutta); keep the caller's unless only case differs.
      const canonical = format.resolvedOptions().timeZone;
      const shown = canonical.toLowerCase() === zone.toLowerCase() ? canonical : zone;
      return (
        `${parts.weekday}, ${parts.day} ${parts.month} ${parts.year}, ${parts.hour}:${parts.minute}:${parts.second} ` +
        `in ${shown} (${parts.timeZoneName}).`
      );
    },
  });

// Intl is the IANA authority at hand: it throws a RangeError for any zone it does not know.
function formatter(timeZone: string): Intl.DateTimeFormat | undefined {
  try {
    return new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
  } catch {
    return undefined;
  }
}
