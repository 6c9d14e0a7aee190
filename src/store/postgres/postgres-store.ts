import type { ConversationStore, StoredTurn } from '../../core/ports/conversation-store.js';
import type { Store } from '../../core/ports/store.js';
import { postgresAppSecrets } from './postgres-app-secrets.js';
import { postgresApprovalWaits } from './postgres-approval-waits.js';
import { postgresApprovals } from './postgres-approvals.js';
import { postgresArchive } from './postgres-archive.js';
import { postgresArchiveEmbeddings } from './postgres-archive-embeddings.js';
import { type PostgresDb, type PostgresOptions, Rollback } from './postgres-db.js';
import { postgresFeedback } from './postgres-feedback.js';
import { postgresFollows } from './postgres-follows.js';
import { postgresForget } from './postgres-forget.js';
import { postgresKnowledge } from './postgres-knowledge.js';
import { openMigratedDb } from './postgres-migrations.js';
import { postgresRunLogs } from './postgres-run-logs.js';
import { postgresSchedules } from './postgres-schedules.js';
import { postgresSettings } from './postgres-settings.js';
import type { PostgresTarget } from './postgres-url.js';
import { postgresUsage } from './postgres-usage.js';
import { postgresWebChats } from './postgres-web-chats.js';
import { postgresWebSessions } from './postgres-web-sessions.js';

interface ConversationRow {
  summary: string | null;
  summary_tokens: number;
  summarized_turns: number;
  version: number;
}

const TURN_COLUMNS = 'id, author, question, answer, tokens, created_at AS "createdAt"';
// The oldest id a window admits, computed over ids and token counts only: no turn text is read for it.
const WINDOW_START = `SELECT MIN(id) AS first FROM (
    SELECT id,
           SUM(tokens) OVER (ORDER BY id DESC ROWS UNBOUNDED PRECEDING) AS running,
           ROW_NUMBER() OVER (ORDER BY id DESC) AS rn
      FROM turns WHERE key = $1) t
  WHERE rn <= $2 OR running <= $3`;

/**
 * Opens a Postgres store of conversations and usage on `target`, migrating its schema first (safe when
 * several replicas start at once). Rejects with a StorageError naming the host, port and database (never
 * the password) when the database cannot be reached.
 */
export async function openPostgresStore(
  target: PostgresTarget,
  options: PostgresOptions = {},
): Promise<Store> {
  const db = await openMigratedDb(target, options);
  return {
    ...postgresConversations(db),
    ...postgresUsage(db),
    ...postgresSettings(db),
    ...postgresFeedback(db),
    ...postgresArchive(db),
    ...postgresArchiveEmbeddings(db),
    ...postgresForget(db),
    ...postgresWebChats(db),
    ...postgresWebSessions(db),
    ...postgresAppSecrets(db),
    ...postgresFollows(db),
    ...postgresKnowledge(db),
    ...postgresSchedules(db),
    ...postgresRunLogs(db),
    ...postgresApprovals(db),
    ...postgresApprovalWaits(db),
  };
}

/** The conversation half of the Postgres store; each method is one statement or one transaction. */
function postgresConversations(db: PostgresDb): ConversationStore {
  return {
    async load(key, window) {
      // REPEATABLE READ: the conversation row and its turns come from one snapshot.
      return db.transaction(
        'read memory',
        async (sql) => {
          const row = (
            await sql<ConversationRow>(
              'SELECT summary, summary_tokens, summarized_turns, version FROM conversations WHERE key = $1',
              [key],
            )
          ).rows[0];
          let turns: StoredTurn[] = [];
          if (row && window) {
            const first = (
              await sql<{ first: number | null }>(WINDOW_START, [key, window.keep, window.maxTokens])
            ).rows[0]?.first;
            if (first != null) {
              turns = (
                await sql<StoredTurn>(
                  `SELECT ${TURN_COLUMNS} FROM turns WHERE key = $1 AND id >= $2 ORDER BY id`,
                  [key, first],
                )
              ).rows;
            }
          } else if (row) {
            turns = (
              await sql<StoredTurn>(`SELECT ${TURN_COLUMNS} FROM turns WHERE key = $1 ORDER BY id`, [key])
            ).rows;
          }
          return {
            summary: row?.summary != null ? { text: row.summary, tokens: row.summary_tokens } : null,
            summarizedTurns: row?.summarized_turns ?? 0,
            version: row?.version ?? 0,
            turns,
          };
        },
        'read',
      );
    },
    async appendTurn(key, turn) {
      // The upsert locks the conversation row before the turn takes its id, so a key's appends (and its
      // compactions and resets) run one at a time and ids grow in the order they commit.
      // The archive gets the turn in the same statement, so it is searchable from now on, folded or not.
      const { rows } = await db.query<{ id: number; createdAt: number }>(
        'store a turn',
        `WITH c AS (
           INSERT INTO conversations (key, updated_at) VALUES ($1, $2)
           ON CONFLICT (key) DO UPDATE SET updated_at = EXCLUDED.updated_at
           RETURNING key),
         t AS (
           INSERT INTO turns (key, author, question, answer, tokens, created_at, principal)
           SELECT key, $3, $4, $5, $6, $2, $7 FROM c
           RETURNING id, key, author, principal, question, answer, created_at),
         a AS (
           INSERT INTO archive (id, key, author, principal, question, answer, created_at)
           SELECT id, key, author, principal, question, answer, created_at FROM t)
         SELECT id, created_at AS "createdAt" FROM t`,
        [key, Date.now(), turn.author, turn.question, turn.answer, turn.tokens, turn.principal ?? null],
      );
      const stored = rows[0]!;
      return { ...turn, id: stored.id, createdAt: stored.createdAt };
    },
    async compact(key, c) {
      return db.transaction('store a summary', async (sql) => {
        const updated = await sql(
          `UPDATE conversations
              SET summary = $1, summary_tokens = $2, summarized_turns = summarized_turns + $3,
                  version = version + 1, updated_at = $4
            WHERE key = $5 AND version = $6`,
          [c.summary.text, c.summary.tokens, c.foldedTurns, Date.now(), key, c.expectedVersion],
        );
        if (updated.rowCount !== 1) throw new Rollback(false);
        const deleted = await sql('DELETE FROM turns WHERE key = $1 AND id <= $2', [key, c.throughId]);
        if (deleted.rowCount !== c.foldedTurns) throw new Rollback(false);
        return true;
      });
    },
    async reset(key) {
      await db.transaction('reset memory', async (sql) => {
        // The conversation row first: it waits for (and then blocks) appends to the key.
        await sql(
          `UPDATE conversations
              SET summary = NULL, summary_tokens = 0, summarized_turns = 0, version = version + 1, updated_at = $1
            WHERE key = $2`,
          [Date.now(), key],
        );
        await sql('DELETE FROM turns WHERE key = $1', [key]);
        await sql('DELETE FROM archive WHERE key = $1', [key]);
        await sql('DELETE FROM notes WHERE key = $1 AND subject IS NULL', [key]);
        await sql('DELETE FROM web_chat_runs WHERE key = $1', [key]);
      });
    },
    async ping() {
      // Not `SELECT 1`: a dropped schema must fail the check, not only a lost connection.
      await db.query('reach the store', 'SELECT 1 FROM schema_migrations LIMIT 1');
    },
    close: () => db.close(),
  };
}
