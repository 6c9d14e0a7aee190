import type { ScheduleDeliverer } from '../schedules/create-scheduler.js';
import { askerOf } from '../schedules/creator.js';
import type { RunResumer } from './orphan-sweeper.js';

/**
 * Goes on with orphaned runs through the platforms' delivery of runs nobody just asked for (the one
 * scheduled questions use): a new answer in the conversation the question was asked in, as its asker.
 */
export function resumerThrough(
  deliverers: Readonly<Record<string, ScheduleDeliverer>>,
  now: () => number = Date.now,
): RunResumer {
  return {
    // Only platforms connected now: a run taken over must have somewhere to answer.
    get platforms() {
      return Object.keys(deliverers).filter((name) => deliverers[name]?.ready?.() ?? true);
    },
    async resume(resumed) {
      const deliverer = deliverers[resumed.platform];
      if (!deliverer) throw new Error(`no ${resumed.platform} connection to resume a run on`);
      const at = now();
      const { run } = resumed;
      await deliverer.deliverScheduled({
        schedule: {
          id: resumed.outcomes[0]?.id ?? 'resumed',
          key: resumed.key,
          settingsKey: run.settingsKey,
          creator: run.asker,
          question: run.question,
          cron: null,
          timezone: 'UTC',
          nextAt: at,
          paused: false,
          createdAt: at,
        },
        asker: askerOf(run.asker),
        dueAt: at,
        reminder: false,
        resume: resumed,
      });
    },
  };
}
