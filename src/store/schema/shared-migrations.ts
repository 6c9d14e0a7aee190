import { PG_USAGE_ROLLUPS } from '../postgres/postgres-usage-rollups.js';
import { SQLITE_USAGE_ROLLUPS } from '../sqlite/sqlite-usage-rollups.js';
import { APPROVAL_GRANTS, APPROVAL_WAITS, APPROVALS } from './approval-tables.js';
import { FOLLOWED_THREADS } from './follow-tables.js';
import {
  KNOWLEDGE_FILES,
  KNOWLEDGE_PASSAGE_KEY,
  KNOWLEDGE_PASSAGES,
  SQLITE_KNOWLEDGE_SEARCH,
  SQLITE_KNOWLEDGE_WORDS,
} from './knowledge-tables.js';
import { WEB_CHAT_RUNS, WEB_CHATS } from './memory-tables.js';
import { RECALL_MIGRATION } from './recall-migration.js';
import { migration } from './render-migrations.js';
import { SCHEDULE_ORIGIN_MIGRATION } from './schedule-origin-migration.js';
import { SCHEDULES } from './schedule-tables.js';
import type { Migration } from './schema-types.js';
import { APP_SECRETS } from './secret-tables.js';
import { WEB_SESSIONS } from './session-tables.js';
import { RUN_LOG_TOOLS, RUN_LOGS } from './usage-tables.js';

/** Migration 3 on SQLite, 2 on Postgres: the tokens each question read from the cache. */
export const ADD_CACHED_TOKENS = 'ALTER TABLE usage ADD COLUMN cached_tokens INTEGER NOT NULL DEFAULT 0;';

const principals = (position: string) =>
  `UPDATE usage SET user_id = platform || ':' || user_id WHERE user_id IS NOT NULL AND ${position}(user_id, ':') = 0;
  UPDATE feedback SET user_id = platform || ':' || user_id WHERE ${position}(user_id, ':') = 0;`;

/**
 * Migrations 6 on, the same versions in both engines. Append only: a released migration never changes, a
 * new one is added after it (tests/store/fixtures/released-migrations.json holds the released texts).
 */
export const SHARED_MIGRATIONS: readonly Migration[] = [
  // 6: people are principals (platform:id), so an ID claimed on one surface never counts for another;
  // a web client's address is counted too (origin).
  migration(
    'ALTER TABLE usage ADD COLUMN origin TEXT;',
    'CREATE INDEX usage_by_origin ON usage (origin, at);',
    { sqlite: principals('instr'), postgres: principals('strpos') },
  ),
  RECALL_MIGRATION,
  migration(WEB_CHATS, WEB_CHAT_RUNS),
  // 9–11 were released as constants whose text ends at column 0.
  { steps: [SCHEDULES], tail: '' },
  // 10: run logs for the admin page, the usage rollups (see *-usage-rollups.ts) and an index carrying the
  // columns the charts sum, for what the rollups cannot answer (one model's top people and channels).
  {
    steps: [
      RUN_LOGS,
      RUN_LOG_TOOLS,
      {
        sqlite: `CREATE INDEX usage_admin ON usage (at, outcome, platform, model, key, user_id, model_calls, prompt_tokens,
    completion_tokens, cached_tokens, duration_ms, tools);`,
        postgres: `CREATE INDEX usage_admin ON usage (at) INCLUDE (outcome, platform, model, key, user_id, model_calls,
    prompt_tokens, completion_tokens, cached_tokens, duration_ms, tools);`,
      },
      'CREATE INDEX feedback_by_key ON feedback (key, at);',
      { sqlite: SQLITE_USAGE_ROLLUPS, postgres: PG_USAGE_ROLLUPS },
    ],
    tail: '',
  },
  { steps: [APPROVALS, APPROVAL_GRANTS], tail: '' },
  // 12: tool calls waiting for a person, resumable after a restart (see approval-wait-rows.ts).
  migration(APPROVAL_WAITS),
  // 13: signed-in web sessions, so that signing out, expiry and revocation end a cookie's worth.
  migration(WEB_SESSIONS),
  // 14: a schedule's creator's address, counted by SCHEDULES_PER_PERSON.
  SCHEDULE_ORIGIN_MIGRATION,
  // 15: which notes are instructions (admins') and which stay in the private conversation they were made in.
  migration(
    {
      sqlite: 'ALTER TABLE notes ADD COLUMN instruction INTEGER NOT NULL DEFAULT 0;',
      postgres: 'ALTER TABLE notes ADD COLUMN instruction BOOLEAN NOT NULL DEFAULT FALSE;',
    },
    {
      sqlite: 'ALTER TABLE notes ADD COLUMN local INTEGER NOT NULL DEFAULT 0;',
      postgres: 'ALTER TABLE notes ADD COLUMN local BOOLEAN NOT NULL DEFAULT FALSE;',
    },
  ),
  // 16: secrets the bot made for itself (the web chat's cookie key without WEB_SESSION_SECRET).
  migration(APP_SECRETS),
  // 17: threads the bot follows without a mention, and whether it stood back there.
  migration(FOLLOWED_THREADS),
  // 18: documents for search_knowledge (KNOWLEDGE_DIR and files shared in channels) and their passages.
  migration(KNOWLEDGE_FILES, KNOWLEDGE_PASSAGES, KNOWLEDGE_PASSAGE_KEY, { sqlite: SQLITE_KNOWLEDGE_SEARCH }),
  // 19: SQLite's knowledge search by word rather than by trigram (its passages are re-indexed on open), and
  // each passage's and archived turn's embedding (EMBEDDINGS_MODEL) with the model that made it.
  migration(
    { sqlite: SQLITE_KNOWLEDGE_WORDS },
    {
      sqlite: 'ALTER TABLE knowledge_passages ADD COLUMN embedding BLOB;',
      postgres: 'ALTER TABLE knowledge_passages ADD COLUMN embedding BYTEA;',
    },
    'ALTER TABLE knowledge_passages ADD COLUMN embedding_model TEXT;',
    {
      sqlite: 'ALTER TABLE archive ADD COLUMN embedding BLOB;',
      postgres: 'ALTER TABLE archive ADD COLUMN embedding BYTEA;',
    },
    'ALTER TABLE archive ADD COLUMN embedding_model TEXT;',
    // What waits for its embedding is found by index, not by reading every row.
    {
      sqlite:
        'CREATE INDEX knowledge_passages_to_embed ON knowledge_passages (id) WHERE embedding_model IS NULL;',
      postgres:
        'CREATE INDEX knowledge_passages_to_embed ON knowledge_passages (scope, path, ordinal) WHERE embedding_model IS NULL;',
    },
    'CREATE INDEX archive_to_embed ON archive (id) WHERE embedding_model IS NULL;',
  ),
];
