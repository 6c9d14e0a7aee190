import type { Table } from './schema-types.js';

/** One record per question (and per summary), with what it spent. */
export const USAGE: Table = {
  name: 'usage',
  columns: {
    id: 'IDENTITY',
    at: 'BIGINT NOT NULL',
    platform: 'TEXT NOT NULL',
    key: 'TEXT NOT NULL',
    user_id: 'TEXT',
    model: 'TEXT NOT NULL',
    protocol: 'TEXT NOT NULL',
    outcome:
      "TEXT NOT NULL CHECK (outcome IN ('pending', 'answered', 'failed', 'cancelled', 'refused', 'limited', 'summary'))",
    model_calls: 'INTEGER NOT NULL',
    prompt_tokens: 'INTEGER NOT NULL',
    completion_tokens: 'INTEGER NOT NULL',
    tools: 'JSON NOT NULL',
    duration_ms: 'INTEGER NOT NULL',
    imported_from: {
      only: 'postgres',
      note: "Set only on records copied by npm run migrate: the source record's identity, so a copy is made once.",
      sql: 'TEXT UNIQUE',
    },
  },
  indexes: { usage_by_at: 'at', usage_by_user: 'user_id, at', usage_by_key: 'key, at' },
};

/** One vote (and comment) per person on an answer. */
export const FEEDBACK: Table = {
  name: 'feedback',
  columns: {
    platform: 'TEXT NOT NULL',
    run_id: 'TEXT NOT NULL',
    user_id: 'TEXT NOT NULL',
    key: 'TEXT NOT NULL',
    vote: "TEXT NOT NULL CHECK (vote IN ('up', 'down'))",
    comment: 'TEXT',
    at: 'BIGINT NOT NULL',
  },
  primaryKey: 'platform, run_id, user_id',
  indexes: { feedback_by_at: 'at' },
};

/** Each run's log: one row, its steps as JSON. */
export const RUN_LOGS: Table = {
  name: 'run_logs',
  columns: {
    usage_id: 'BIGINT PRIMARY KEY',
    at: 'BIGINT NOT NULL',
    platform: 'TEXT NOT NULL',
    key: 'TEXT NOT NULL',
    user_id: 'TEXT',
    question: 'TEXT NOT NULL',
    answer: 'TEXT',
    steps: 'JSON NOT NULL',
  },
  indexes: { run_logs_by_at: 'at', run_logs_by_user: 'user_id' },
};

/** Each run's tool calls, for the failing-tools table. */
export const RUN_LOG_TOOLS: Table = {
  name: 'run_log_tools',
  columns: {
    usage_id: 'BIGINT NOT NULL',
    at: 'BIGINT NOT NULL',
    tool: 'TEXT NOT NULL',
    ok: 'BOOLEAN NOT NULL',
    ms: 'INTEGER NOT NULL',
  },
  indexes: { run_log_tools_by_at: 'at, tool, ok', run_log_tools_by_run: 'usage_id' },
};
