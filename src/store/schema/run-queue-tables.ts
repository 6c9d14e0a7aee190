import type { Table } from './schema-types.js';

/** Delivery ids admitted once (Slack retries), for the line of questions replicas share (Postgres only). */
export const RUN_DELIVERIES: Table = {
  name: 'run_deliveries',
  columns: { delivery: 'TEXT PRIMARY KEY', seen_at: 'BIGINT NOT NULL' },
  indexes: { run_deliveries_by_seen: 'seen_at' },
};

/** Questions waiting, in id order per key, until they have run; `owner` is the replica's liveness lock. */
export const RUN_INBOX: Table = {
  name: 'run_inbox',
  columns: {
    id: { only: 'postgres', sql: 'BIGSERIAL PRIMARY KEY' },
    key: 'TEXT NOT NULL',
    platform: 'TEXT NOT NULL',
    owner: 'INTEGER NOT NULL',
    state: "TEXT NOT NULL DEFAULT 'waiting'",
    placeholder: 'JSON',
    arrived_at: 'BIGINT NOT NULL',
  },
  indexes: { run_inbox_by_key: 'key, id', run_inbox_by_owner: 'owner' },
};
