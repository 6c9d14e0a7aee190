import type { Table } from './schema-types.js';

/**
 * One row per schedule, its next time and the claim a replica holds on it while firing (`claimed_by` until
 * `claim_until`), indexed for the due scan.
 */
export const SCHEDULES: Table = {
  name: 'schedules',
  columns: {
    id: 'TEXT PRIMARY KEY',
    key: 'TEXT NOT NULL',
    settings_key: 'TEXT NOT NULL',
    creator: 'TEXT NOT NULL',
    creator_json: 'TEXT NOT NULL',
    question: 'TEXT NOT NULL',
    cron: 'TEXT',
    timezone: 'TEXT NOT NULL',
    next_at: 'BIGINT NOT NULL',
    paused: 'BOOLEAN NOT NULL DEFAULT FALSE',
    platform: 'TEXT NOT NULL',
    claimed_by: 'TEXT',
    claim_until: 'BIGINT NOT NULL DEFAULT 0',
    created_at: 'BIGINT NOT NULL',
  },
  indexes: {
    schedules_due: { columns: 'next_at', unless: 'paused' },
    schedules_by_key: 'key, next_at',
    schedules_by_creator: 'creator, next_at',
  },
};
