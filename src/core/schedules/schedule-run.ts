import type { Asker } from '../governance/asker.js';
import type { Schedule } from '../ports/schedule-store.js';
import type { SystemRun } from '../ports/system-run-delivery.js';
import { askerOf } from './creator.js';
import { platformOfKey } from './platform-of-key.js';

/** A run of a schedule: its question, asked in its conversation as its creator (rights as kept, unless `asker` is given). */
export function scheduleRun(schedule: Schedule, asker: Asker = askerOf(schedule.creator)): SystemRun {
  return {
    platform: platformOfKey(schedule.key),
    key: schedule.key,
    settingsKey: schedule.settingsKey,
    asker,
    author: schedule.creator.name,
    question: schedule.question,
    why: { kind: 'schedule', schedule },
  };
}
