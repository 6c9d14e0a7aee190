import type { Asker } from '../governance/asker.js';
import { ScheduleError, type ScheduleService } from './schedule-service.js';

/** How to use `/schedule`, for a reply to anything it does not understand. */
export const SCHEDULE_USAGE =
  'Usage: /schedule list | /schedule cancel <id> | /schedule add "<cron or time>" <question>' +
  ' (a time such as 2026-12-04T09:00 or "in 2 hours", or a cron expression such as "0 9 * * 1").';

/** Where a `/schedule` command was given, and by whom. */
export interface ScheduleCommandPlace {
  asker: Asker;
  key: string;
  /** Whose settings apply (a thread's parent channel); `key` when unset. */
  settingsKey?: string | undefined;
  /** The asker's display name. */
  author: string;
}

/** `/schedule list|cancel <id>|add "<when>" <question>`: the reply, in one short text. */
export async function runScheduleCommand(
  service: ScheduleService,
  place: ScheduleCommandPlace,
  args: string,
): Promise<string> {
  const text = args.trim();
  const [verb = '', ...rest] = text.split(/\s+/);
  const tail = text.slice(verb.length).trim();
  switch (verb.toLowerCase()) {
    case '':
    case 'list':
      return service.list(place.asker, place.key);
    case 'cancel':
    case 'delete':
      return rest.length === 1 ? service.cancel(place.asker, rest[0]!) : SCHEDULE_USAGE;
    case 'add': {
      const parsed = splitWhen(tail);
      if (!parsed) return SCHEDULE_USAGE;
      try {
        const schedule = await service.add(
          { asker: place.asker, settingsKey: place.settingsKey ?? place.key, author: place.author },
          place.key,
          { when: parsed.when, question: parsed.question },
        );
        return service.confirmation(schedule);
      } catch (err) {
        if (err instanceof ScheduleError) return err.message;
        throw err;
      }
    }
    default:
      return SCHEDULE_USAGE;
  }
}

/** `"<when>" question` (straight or curly quotes) into its parts. */
function splitWhen(text: string): { when: string; question: string } | undefined {
  const match = /^["“”'‘’]([^"“”'‘’]+)["“”'‘’]\s+([\s\S]+)$/.exec(text);
  if (!match) return undefined;
  return { when: match[1]!.trim(), question: match[2]!.trim() };
}
