import type { RunLogStore } from '../../core/ports/run-log-store.js';
import type { PostgresDb } from './postgres-db.js';

/** Migration of the Postgres schema that adds this part's tables. */
export const PG_RUN_LOGS_MIGRATION = '';

/** The run-logs half of the Postgres store. */
export function postgresRunLogs(_db: PostgresDb): RunLogStore {
  return {};
}
