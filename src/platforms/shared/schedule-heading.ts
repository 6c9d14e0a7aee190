import type { ScheduledRun } from '../../core/schedules/create-scheduler.js';

/**
 * The line above an answer the bot gives unasked: a reminder names (and, where `who` is a mention, pings)
 * its creator; a recurring question names who scheduled it; a run that goes on after a restart says how
 * its waiting tool calls were decided.
 */
export function scheduleHeading(run: ScheduledRun, who: string, question: string): string {
  if (run.resume) {
    const decided = run.resume.outcomes
      .map(({ tool, decision }) =>
        decision.byName ? `${tool} ${decision.outcome} by ${decision.byName}` : `${tool} ${decision.outcome}`,
      )
      .join(', ');
    return `▶️ Going on after a restart (${decided || 'no call decided'}), for ${who}: ${question}`;
  }
  return run.reminder ? `⏰ Reminder for ${who}: ${question}` : `🔁 Scheduled by ${who}: ${question}`;
}
