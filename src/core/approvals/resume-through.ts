import type { SystemRunDeliveries } from '../ports/system-run-delivery.js';
import { askerOf } from '../schedules/creator.js';
import type { RunResumer } from './orphan-sweeper.js';

/**
 * Goes on with orphaned runs as runs the system starts: a new answer in the conversation the question was
 * asked in, as its asker with the rights they had then.
 */
export function resumerThrough(deliveries: SystemRunDeliveries): RunResumer {
  return {
    // Only platforms connected now: a run taken over must have somewhere to answer.
    get platforms() {
      return Object.keys(deliveries).filter((name) => deliveries[name]?.ready?.() ?? true);
    },
    async resume(resumed) {
      const delivery = deliveries[resumed.platform];
      if (!delivery) throw new Error(`no ${resumed.platform} connection to resume a run on`);
      const { run } = resumed;
      await delivery.deliver({
        platform: resumed.platform,
        key: resumed.key,
        settingsKey: run.settingsKey,
        asker: askerOf(run.asker),
        author: run.author,
        question: run.question,
        why: { kind: 'resume', resumed },
      });
    },
  };
}
