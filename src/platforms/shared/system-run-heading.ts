import type { SystemRun } from '../../core/ports/system-run-delivery.js';

/** Whether the answer mentions (pings) the person it is for: a one-off reminder does. */
export function pingsAsker(run: SystemRun): boolean {
  return run.why.kind === 'schedule' && run.why.schedule.cron === null;
}

/**
 * The line above an answer the bot gives unasked, saying why for `who` (a name, or a mention where it
 * pings): a reminder, a recurring question, or a run going on after a restart with how its waiting tool
 * calls were decided.
 */
export function systemRunHeading(run: SystemRun, who: string, question: string): string {
  const { why } = run;
  switch (why.kind) {
    case 'schedule':
      return why.schedule.cron === null
        ? `⏰ Reminder for ${who}: ${question}`
        : `🔁 Scheduled by ${who}: ${question}`;
    case 'resume': {
      const decided = why.resumed.outcomes
        .map(({ tool, decision }) =>
          decision.byName
            ? `${tool} ${decision.outcome} by ${decision.byName}`
            : `${tool} ${decision.outcome}`,
        )
        .join(', ');
      return `▶️ Going on after a restart (${decided || 'no call decided'}), for ${who}: ${question}`;
    }
  }
}
