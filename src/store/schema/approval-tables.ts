import type { Table } from './schema-types.js';

/** Each decision on a tool call that waited for a person, once per approval id. */
export const APPROVALS: Table = {
  name: 'approvals',
  columns: {
    id: 'TEXT PRIMARY KEY',
    at: 'BIGINT NOT NULL',
    requested_at: 'BIGINT NOT NULL',
    platform: 'TEXT NOT NULL',
    key: 'TEXT NOT NULL',
    tool: 'TEXT NOT NULL',
    args_digest: 'TEXT NOT NULL',
    asker: 'TEXT',
    decided_by: 'TEXT',
    outcome: "TEXT NOT NULL CHECK (outcome IN ('approved', 'denied', 'expired', 'stopped'))",
    reason: 'TEXT',
  },
  indexes: { approvals_by_at: 'at' },
};

/** The tools a channel approved once (`once-per-channel`). */
export const APPROVAL_GRANTS: Table = {
  name: 'approval_grants',
  columns: {
    settings_key: 'TEXT NOT NULL',
    tool: 'TEXT NOT NULL',
    granted_by: 'TEXT NOT NULL',
    at: 'BIGINT NOT NULL',
  },
  primaryKey: 'settings_key, tool',
};
