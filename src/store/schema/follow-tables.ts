import type { Table } from './schema-types.js';

/** Threads the bot follows without a mention (migration 17), keyed by the thread's conversation key. */
export const FOLLOWED_THREADS: Table = {
  name: 'followed_threads',
  columns: {
    key: 'TEXT PRIMARY KEY',
    asker: 'TEXT NOT NULL',
    last_at: 'BIGINT NOT NULL',
    stood_back: 'BOOLEAN NOT NULL DEFAULT FALSE',
  },
  indexes: { followed_threads_by_asker: 'asker', followed_threads_by_last: 'last_at' },
};
