import type Database from 'better-sqlite3';
import type { RunLogStore } from '../../core/ports/run-log-store.js';
import type { FailWith } from './sqlite-usage.js';

/** Migration of the SQLite schema that adds this part's tables. */
export const SQLITE_RUN_LOGS_MIGRATION = '';

/** The run-logs half of the SQLite store. */
export function sqliteRunLogs(_db: Database.Database, _fail: FailWith): RunLogStore {
  return {};
}
