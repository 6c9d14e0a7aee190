import type { ScheduledRun } from '../../core/schedules/create-scheduler.js';

/**
 * The line above a scheduled run's answer, saying why the bot speaks unasked: a reminder names (and, where
 * `who` is a mention, pings) its creator; a recurring question names who scheduled it.
 */
export function scheduleHeading(run: ScheduledRun, who: string, question: string): string {
  return run.reminder ? `⏰ Reminder for ${who}: ${question}` : `🔁 Scheduled by ${who}: ${question}`;
}
