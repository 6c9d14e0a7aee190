import type { Table } from './schema-types.js';

/** Secrets the bot generated for itself (migration 16), e.g. the web chat's cookie key when WEB_SESSION_SECRET is unset. */
export const APP_SECRETS: Table = {
  name: 'app_secrets',
  columns: {
    name: 'TEXT PRIMARY KEY',
    value: 'TEXT NOT NULL',
    created_at: 'BIGINT NOT NULL',
  },
};
