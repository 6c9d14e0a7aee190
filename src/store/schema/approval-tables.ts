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

/**
 * Tool calls waiting for a person: each with what resuming its run needs (`state`, JSON text) and, once
 * someone pressed, the decision (`decision`, JSON text), so a press reaches it from any replica and a
 * restart loses none.
 */
export const APPROVAL_WAITS: Table = {
  name: 'approval_waits',
  columns: {
    id: 'TEXT PRIMARY KEY',
    run_id: 'TEXT NOT NULL',
    platform: 'TEXT NOT NULL',
    key: 'TEXT NOT NULL',
    tool: 'TEXT NOT NULL',
    asker: 'TEXT',
    requested_at: 'BIGINT NOT NULL',
    expires_at: 'BIGINT NOT NULL',
    owner: 'TEXT NOT NULL',
    seen_at: 'BIGINT NOT NULL',
    state: 'TEXT NOT NULL',
    decision: 'TEXT',
    decided_at: 'BIGINT',
  },
  indexes: {
    approval_waits_by_owner: 'owner',
    approval_waits_by_run: 'run_id',
    approval_waits_by_seen: 'seen_at',
  },
};
