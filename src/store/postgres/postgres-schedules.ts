import type { ScheduleStore } from '../../core/ports/schedule-store.js';
import type { PostgresDb } from './postgres-db.js';

/** Migration of the Postgres schema that adds this part's tables. */
export const PG_SCHEDULES_MIGRATION = '';

/** The schedules half of the Postgres store. */
export function postgresSchedules(_db: PostgresDb): ScheduleStore {
  return {};
}
