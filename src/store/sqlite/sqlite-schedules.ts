import type Database from 'better-sqlite3';
import type { ScheduleStore } from '../../core/ports/schedule-store.js';
import type { FailWith } from './sqlite-usage.js';

/** Migration of the SQLite schema that adds this part's tables. */
export const SQLITE_SCHEDULES_MIGRATION = '';

/** The schedules half of the SQLite store. */
export function sqliteSchedules(_db: Database.Database, _fail: FailWith): ScheduleStore {
  return {};
}
