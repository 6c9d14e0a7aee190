import type { Asker } from '../../../src/core/governance/asker.js';
import type { Schedule, ScheduleStore } from '../../../src/core/ports/schedule-store.js';
import {
  createScheduler,
  type ScheduleDeliverer,
  type ScheduledRun,
  type Scheduler,
} from '../../../src/core/schedules/create-scheduler.js';

/** A deliverer that records what it was asked to deliver and tell. */
export interface RecordingDeliverer extends ScheduleDeliverer {
  runs: ScheduledRun[];
  notes: { schedule: Schedule; text: string }[];
}

/** A deliverer that records runs and notes. */
export function recordingDeliverer(): RecordingDeliverer {
  const runs: ScheduledRun[] = [];
  const notes: { schedule: Schedule; text: string }[] = [];
  return {
    runs,
    notes,
    async deliverScheduled(run) {
      runs.push(run);
    },
    async tellScheduleCreator(schedule, text) {
      notes.push({ schedule, text });
    },
  };
}

/** A clock tests move by hand. */
export function manualClock(start: number) {
  let t = start;
  return {
    now: () => t,
    advance(ms: number) {
      t += ms;
    },
    set(at: number) {
      t = at;
    },
  };
}

/** A scheduler on `store` that polls only when ticked, with a deliverer for Discord and Slack. */
export function startTestScheduler(
  store: ScheduleStore,
  now: () => number,
  options: { owner?: string; blocked?: (asker: Asker, key: string) => boolean; catchUpMs?: number } = {},
): { scheduler: Scheduler; delivered: RecordingDeliverer } {
  const scheduler = createScheduler({
    store,
    now,
    pollMs: 0,
    owner: options.owner,
    catchUpMs: options.catchUpMs ?? 3_600_000,
    allowed: async (asker, key) => !options.blocked?.(asker, key),
  });
  const delivered = recordingDeliverer();
  scheduler.start({ discord: delivered, slack: delivered });
  return { scheduler, delivered };
}
