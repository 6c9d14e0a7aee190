import type { Asker } from '../../../src/core/governance/asker.js';
import type { Schedule, ScheduleStore } from '../../../src/core/ports/schedule-store.js';
import type { SystemRun, SystemRunDelivery } from '../../../src/core/ports/system-run-delivery.js';
import { createScheduler, type Scheduler } from '../../../src/core/schedules/create-scheduler.js';

/** A schedule's run as tests look at it: the system run, its schedule, when due, whether a reminder. */
export interface RecordedRun extends SystemRun {
  schedule: Schedule;
  dueAt: number;
  reminder: boolean;
}

/** A delivery that records what it was asked to deliver and tell. */
export interface RecordingDelivery extends SystemRunDelivery {
  runs: RecordedRun[];
  notes: { schedule: Schedule; text: string }[];
}

/** The schedule a run was for; a scheduler delivers nothing else. */
function scheduleOf(run: SystemRun): Schedule {
  if (run.why.kind !== 'schedule') throw new Error(`a scheduler delivered a ${run.why.kind} run`);
  return run.why.schedule;
}

/** A delivery that records runs and notes. */
export function recordingDelivery(): RecordingDelivery {
  const runs: RecordedRun[] = [];
  const notes: { schedule: Schedule; text: string }[] = [];
  return {
    runs,
    notes,
    async deliver(run) {
      const schedule = scheduleOf(run);
      runs.push({ ...run, schedule, dueAt: schedule.nextAt, reminder: schedule.cron === null });
    },
    async tell(run, text) {
      notes.push({ schedule: scheduleOf(run), text });
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

/** A scheduler on `store` that polls only when ticked, with a delivery for Discord and Slack. */
export function startTestScheduler(
  store: ScheduleStore,
  now: () => number,
  options: { owner?: string; blocked?: (asker: Asker, key: string) => boolean; catchUpMs?: number } = {},
): { scheduler: Scheduler; delivered: RecordingDelivery } {
  const scheduler = createScheduler({
    store,
    now,
    pollMs: 0,
    owner: options.owner,
    catchUpMs: options.catchUpMs ?? 3_600_000,
    allowed: async (asker, key) => !options.blocked?.(asker, key),
  });
  const delivered = recordingDelivery();
  scheduler.start({ discord: delivered, slack: delivered });
  return { scheduler, delivered };
}
