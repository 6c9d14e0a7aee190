import type { Table } from './schema-types.js';

/** A conversation's running summary (migration 1). */
export const CONVERSATIONS: Table = {
  name: 'conversations',
  columns: {
    key: 'TEXT PRIMARY KEY',
    summary: 'TEXT',
    summary_tokens: 'INTEGER NOT NULL DEFAULT 0',
    summarized_turns: 'INTEGER NOT NULL DEFAULT 0',
    version: 'INTEGER NOT NULL DEFAULT 0',
    updated_at: 'BIGINT NOT NULL',
  },
};

/** The turns not yet folded into a summary (migration 1; `principal` comes in 7). */
export const TURNS: Table = {
  name: 'turns',
  columns: {
    id: 'IDENTITY',
    key: 'TEXT NOT NULL',
    author: 'TEXT NOT NULL',
    question: 'TEXT NOT NULL',
    answer: 'TEXT NOT NULL',
    tokens: 'INTEGER NOT NULL',
    created_at: 'BIGINT NOT NULL',
  },
  indexes: { turns_by_key: 'key, id' },
};

/** Per-channel settings by name. */
export const CHANNEL_SETTINGS: Table = {
  name: 'channel_settings',
  columns: {
    key: 'TEXT NOT NULL',
    name: 'TEXT NOT NULL',
    value: 'TEXT NOT NULL',
    updated_at: 'BIGINT NOT NULL',
  },
  primaryKey: 'key, name',
};

/** Every turn as stored, for recall; Postgres keeps its full-text vector in the row. */
export const ARCHIVE: Table = {
  name: 'archive',
  columns: {
    id: 'BIGINT PRIMARY KEY',
    key: 'TEXT NOT NULL',
    author: 'TEXT NOT NULL',
    principal: 'TEXT',
    question: 'TEXT NOT NULL',
    answer: 'TEXT NOT NULL',
    created_at: 'BIGINT NOT NULL',
    search: {
      only: 'postgres',
      sql: `tsvector GENERATED ALWAYS AS (
      to_tsvector('english', question || ' ' || answer) || setweight(to_tsvector('simple', author), 'D')
    ) STORED`,
    },
  },
  indexes: {
    archive_search: { only: 'postgres', using: 'gin', columns: 'search' },
    archive_by_key: 'key, id',
    archive_by_principal: 'principal, key',
    archive_by_time: 'created_at',
  },
};

/** Notes kept per channel (subject NULL) or per person (subject = their principal). */
export const NOTES: Table = {
  name: 'notes',
  columns: {
    id: 'IDENTITY',
    key: 'TEXT NOT NULL',
    subject: 'TEXT',
    text: 'TEXT NOT NULL',
    author: 'TEXT',
    created_at: 'BIGINT NOT NULL',
  },
  indexes: { notes_by_key: 'key, id', notes_by_subject: 'subject, id', notes_by_author: 'author, key' },
};

/** The web chats a person owns. */
export const WEB_CHATS: Table = {
  name: 'web_chats',
  columns: {
    key: 'TEXT PRIMARY KEY',
    owner: 'TEXT NOT NULL',
    title: 'TEXT NOT NULL',
    created_at: 'BIGINT NOT NULL',
    updated_at: 'BIGINT NOT NULL',
  },
  indexes: { web_chats_by_owner: 'owner, updated_at' },
};

/** The runs shown in a web chat. */
export const WEB_CHAT_RUNS: Table = {
  name: 'web_chat_runs',
  columns: {
    id: 'IDENTITY',
    key: 'TEXT NOT NULL',
    run_id: 'TEXT NOT NULL',
    run: 'TEXT NOT NULL',
    created_at: 'BIGINT NOT NULL',
  },
  indexes: { web_chat_runs_by_key: 'key, id' },
};
