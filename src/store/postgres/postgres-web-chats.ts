import type { WebChat, WebChatRun, WebChatStore } from '../../core/ports/web-chat-store.js';
import { type PostgresDb, Rollback } from './postgres-db.js';

const CHAT_COLUMNS = 'key, title, created_at AS "createdAt", updated_at AS "updatedAt"';

interface ChatRow {
  key: string;
  title: string;
  createdAt: number | string;
  updatedAt: number | string;
}

const chatOf = (row: ChatRow): WebChat => ({
  key: row.key,
  title: row.title,
  createdAt: Number(row.createdAt),
  updatedAt: Number(row.updatedAt),
});

/** The web chat half of the Postgres store; each method is one statement or one transaction. */
export function postgresWebChats(db: PostgresDb): WebChatStore {
  return {
    async listWebChats(owner, limit) {
      const { rows } = await db.query<ChatRow>(
        'list web chats',
        `SELECT ${CHAT_COLUMNS} FROM web_chats WHERE owner = $1 ORDER BY updated_at DESC, key LIMIT $2`,
        [owner, limit],
      );
      return rows.map(chatOf);
    },
    async webChat(owner, key) {
      const { rows } = await db.query<ChatRow>(
        'read a web chat',
        `SELECT ${CHAT_COLUMNS} FROM web_chats WHERE owner = $1 AND key = $2`,
        [owner, key],
      );
      return rows[0] && chatOf(rows[0]);
    },
    async webChatRuns(owner, key) {
      const { rows } = await db.query<{ run: string }>(
        'read a web chat',
        `SELECT r.run FROM web_chat_runs r JOIN web_chats c ON c.key = r.key
          WHERE c.owner = $1 AND r.key = $2 ORDER BY r.id`,
        [owner, key],
      );
      return rows.map((r) => JSON.parse(r.run) as WebChatRun);
    },
    async saveWebChatRun(owner, key, run, o) {
      return db.transaction('store a web chat answer', async (sql) => {
        // The upsert locks the conversation's row: its runs are written one save at a time.
        const { rows } = await sql<{ owner: string }>(
          `INSERT INTO web_chats (key, owner, title, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)
           ON CONFLICT (key) DO UPDATE SET updated_at = GREATEST(web_chats.updated_at, EXCLUDED.updated_at)
           RETURNING owner`,
          [key, owner, o.title, o.at],
        );
        if (rows[0]?.owner !== owner) throw new Rollback(false);
        await sql('DELETE FROM web_chat_runs WHERE key = $1 AND run_id = $2', [key, run.id]);
        await sql('INSERT INTO web_chat_runs (key, run_id, run, created_at) VALUES ($1, $2, $3, $4)', [
          key,
          run.id,
          JSON.stringify(run),
          o.at,
        ]);
        await sql(
          `DELETE FROM web_chat_runs WHERE key = $1 AND id NOT IN
             (SELECT id FROM web_chat_runs WHERE key = $1 ORDER BY id DESC LIMIT $2)`,
          [key, Math.max(1, o.keep)],
        );
        return true;
      });
    },
    async renameWebChat(owner, key, title) {
      const { rowCount } = await db.query(
        'rename a web chat',
        'UPDATE web_chats SET title = $1 WHERE owner = $2 AND key = $3',
        [title, owner, key],
      );
      return (rowCount ?? 0) > 0;
    },
    async deleteWebChat(owner, key) {
      return db.transaction('delete a web chat', async (sql) => {
        const deleted = await sql('DELETE FROM web_chats WHERE owner = $1 AND key = $2', [owner, key]);
        if ((deleted.rowCount ?? 0) === 0) return false;
        await sql('DELETE FROM web_chat_runs WHERE key = $1', [key]);
        return true;
      });
    },
    async clearWebChatRuns(key) {
      await db.query('clear a web chat', 'DELETE FROM web_chat_runs WHERE key = $1', [key]);
    },
    async forgetWebChats(owner, key) {
      return db.transaction('forget web chats', async (sql) => {
        const { rows } = await sql<{ key: string }>(
          'DELETE FROM web_chats WHERE owner = $1 AND ($2::text IS NULL OR key = $2) RETURNING key',
          [owner, key ?? null],
        );
        const keys = rows.map((r) => r.key);
        if (keys.length > 0) await sql('DELETE FROM web_chat_runs WHERE key = ANY($1::text[])', [keys]);
        return keys.length;
      });
    },
  };
}
