import { z } from 'zod';
import type { RunPlaces } from '../schedules/run-places.js';
import { MAX_QUESTION_CHARS, ScheduleError, type ScheduleService } from '../schedules/schedule-service.js';
import { formatInZone } from '../schedules/schedule-time.js';
import { defineTool, type Tool, ToolInputError } from './define-tool.js';

/** What `schedule` needs: the service, who is asking where, the clock and the default zone. */
export interface ScheduleToolDeps {
  service: ScheduleService;
  places: RunPlaces;
  /** The zone named in the description as the default. */
  timeZone: string;
  now?: (() => number) | undefined;
}

/** `schedule`: a reminder or a recurring question, asked later in this conversation as the person asking. */
export function createScheduleTool(deps: ScheduleToolDeps): Tool {
  const now = deps.now ?? Date.now;
  return defineTool({
    name: 'schedule',
    description:
      'Schedules a question to be asked later in this conversation, as the person asking: a one-off reminder ' +
      '("remind me tomorrow at 9 to send the report") or a recurring question ("every Monday at 9, summarise ' +
      `last week"). Times without an offset are read in the person's zone (default ${deps.timeZone}); call ` +
      'current_time first if you need today’s date. The result states the exact time; tell the person, with ' +
      'how to cancel it. People can also use /schedule list and /schedule cancel <id>.',
    input: z.object({
      when: z
        .string()
        .trim()
        .max(100)
        .optional()
        .describe(
          'when it runs: an ISO time such as "2026-12-04T09:00", a delay such as "in 20 minutes" or "in 2 hours", or a 5-field cron expression for a recurring question',
        ),
      repeat: z
        .string()
        .trim()
        .max(100)
        .optional()
        .describe(
          'a 5-field cron expression when it repeats, e.g. "0 9 * * 1" for Mondays at 09:00; omit for once',
        ),
      question: z
        .string()
        .trim()
        .min(1)
        .max(MAX_QUESTION_CHARS)
        .describe('what to ask or remind of then, in the person’s words, e.g. "send the report"'),
      timezone: z
        .string()
        .trim()
        .max(64)
        .optional()
        .describe('IANA zone of the person, e.g. "Europe/Paris"; omit for the default'),
    }),
    async execute(input, context) {
      if (!context.key) throw new ToolInputError('schedule works only inside a conversation.');
      const place = deps.places.get(context.key);
      if (!place || (context.principal !== undefined && place.asker.principal !== context.principal)) {
        throw new ToolInputError('I do not know who is asking here, so I cannot schedule anything for them.');
      }
      try {
        const schedule = await deps.service.add(place, context.key, input);
        return deps.service.confirmation(schedule);
      } catch (err) {
        if (!(err instanceof ScheduleError)) throw err;
        // The time now lets the model correct a time it worked out wrongly, without another tool call.
        if (/it is now/.test(err.message)) throw new ToolInputError(err.message);
        const zone = input.timezone || deps.timeZone;
        throw new ToolInputError(`${err.message} (It is now ${safeFormat(now(), zone, deps.timeZone)}.)`);
      }
    },
  });
}

function safeFormat(at: number, zone: string, fallback: string): string {
  try {
    return formatInZone(at, zone);
  } catch {
    return formatInZone(at, fallback);
  }
}
