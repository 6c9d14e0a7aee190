import { migration } from './render-migrations.js';

/**
 * Migration 14: where a schedule's creator asked from (a token browser's `addr:<ip>`), so that
 * SCHEDULES_PER_PERSON counts the address as well as the person and fresh cookies add nothing.
 */
export const SCHEDULE_ORIGIN_MIGRATION = migration(
  'ALTER TABLE schedules ADD COLUMN origin TEXT;',
  'CREATE INDEX schedules_by_origin ON schedules (origin);',
);
