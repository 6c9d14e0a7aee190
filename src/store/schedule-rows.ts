import type { Schedule, ScheduleCreator } from '../core/ports/schedule-store.js';
import { platformOfKey } from '../core/schedules/platform-of-key.js';

/** A schedules row as both engines return it (times may come back as strings from Postgres BIGINT). */
export interface ScheduleRow {
  id: string;
  key: string;
  settings_key: string;
  creator: string;
  creator_json: string;
  question: string;
  cron: string | null;
  timezone: string;
  next_at: number | string;
  paused: number | boolean;
  created_at: number | string;
}

/** A row as a Schedule. */
export function scheduleOf(row: ScheduleRow): Schedule {
  return {
    id: row.id,
    key: row.key,
    settingsKey: row.settings_key,
    creator: JSON.parse(row.creator_json) as ScheduleCreator,
    question: row.question,
    cron: row.cron,
    timezone: row.timezone,
    nextAt: Number(row.next_at),
    paused: row.paused === true || row.paused === 1,
    createdAt: Number(row.created_at),
  };
}

/** A schedule's column values, in the order both engines' INSERTs list them. */
export function rowValues(s: Schedule): unknown[] {
  return [
    s.id,
    s.key,
    s.settingsKey,
    s.creator.principal,
    JSON.stringify(s.creator),
    s.question,
    s.cron,
    s.timezone,
    s.nextAt,
    s.paused,
    platformOfKey(s.key),
    s.createdAt,
    s.creator.origin ?? null,
  ];
}

/** The columns {@link rowValues} fills. */
export const INSERT_COLUMNS =
  'id, key, settings_key, creator, creator_json, question, cron, timezone, next_at, paused, platform, created_at, origin';
