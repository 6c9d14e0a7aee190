import type { Table } from './schema-types.js';

/** Signed-in web sessions (migration 13): the cookie holds a random ID, its hash keys the row. */
export const WEB_SESSIONS: Table = {
  name: 'web_sessions',
  columns: {
    id: 'TEXT PRIMARY KEY',
    principal: 'TEXT NOT NULL',
    user_id: 'TEXT NOT NULL',
    name: 'TEXT NOT NULL',
    roles: "TEXT NOT NULL DEFAULT '[]'",
    sealed_grant: 'TEXT',
    created_at: 'BIGINT NOT NULL',
    last_seen: 'BIGINT NOT NULL',
    checked_at: 'BIGINT NOT NULL',
    address: "TEXT NOT NULL DEFAULT ''",
    user_agent: "TEXT NOT NULL DEFAULT ''",
  },
  indexes: { web_sessions_by_principal: 'principal', web_sessions_by_seen: 'last_seen' },
};
