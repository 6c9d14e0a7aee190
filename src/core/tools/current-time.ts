import { z } from 'zod';
import { readWallClock, wallClockFormat } from '../util/wall-clock.js';
import { defineTool, type ToolFactory, ToolInputError } from './define-tool.js';

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
      const format = wallClockFormat(zone, true);
      if (!format) {
        const source = timezone ? '' : ' (the DEFAULT_TIMEZONE setting)';
        throw new ToolInputError(
          `Unknown time zone "${zone}"${source}. Use an IANA name such as "Europe/Paris", "America/New_York" or "UTC".`,
        );
      }
      const clock = readWallClock(format, new Date());
      // Intl canonicalises some names (Asia/Kolkata → Asia/Calcutta); keep the caller's unless only case differs.
      const canonical = format.resolvedOptions().timeZone;
      const shown = canonical.toLowerCase() === zone.toLowerCase() ? canonical : zone;
      return `${clock.text} in ${shown} (${clock.offset}).`;
    },
  });
