import type Database from 'better-sqlite3';
import type { WebChat, WebChatRun, WebChatStore } from '../../core/ports/web-chat-store.js';
import type { FailWith } from './sqlite-usage.js';

const CHAT_COLUMNS = 'key, title, created_at AS createdAt, updated_at AS updatedAt';

/** The web chat half of the SQLite store; each method is one transaction. */
export function sqliteWebChats(db: Database.Database, fail: FailWith): WebChatStore {
  const list = db.prepare<[string, number], WebChat>(
    `SELECT ${CHAT_COLUMNS} FROM web_chats WHERE owner = ? ORDER BY updated_at DESC, key LIMIT ?`,
  );
  const one = db.prepare<[string, string], WebChat>(
    `SELECT ${CHAT_COLUMNS} FROM web_chats WHERE owner = ? AND key = ?`,
  );
  const ownerOf = db.prepare<[string], { owner: string }>('SELECT owner FROM web_chats WHERE key = ?');
  const runs = db.prepare<[string, string], { run: string }>(
    `SELECT r.run FROM web_chat_runs r JOIN web_chats c ON c.key = r.key
      WHERE c.owner = ? AND r.key = ? ORDER BY r.id`,
  );
  const insertChat = db.prepare<[string, string, string, number, number]>(
    'INSERT INTO web_chats (key, owner, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
  );
  const touch = db.prepare<[number, string]>(
    'UPDATE web_chats SET updated_at = MAX(updated_at, ?) WHERE key = ?',
  );
  const dropRun = db.prepare<[string, string]>('DELETE FROM web_chat_runs WHERE key = ? AND run_id = ?');
  const insertRun = db.prepare<[string, string, string, number]>(
    'INSERT INTO web_chat_runs (key, run_id, run, created_at) VALUES (?, ?, ?, ?)',
  );
  const trim = db.prepare<[string, string, number]>(
    `DELETE FROM web_chat_runs WHERE key = ? AND id NOT IN
       (SELECT id FROM web_chat_runs WHERE key = ? ORDER BY id DESC LIMIT ?)`,
  );
  const rename = db.prepare<[string, string, string]>(
    'UPDATE web_chats SET title = ? WHERE owner = ? AND key = ?',
  );
  const deleteChat = db.prepare<[string, string]>('DELETE FROM web_chats WHERE owner = ? AND key = ?');
  const deleteRuns = db.prepare<[string]>('DELETE FROM web_chat_runs WHERE key = ?');
  const ownedKeys = db.prepare<[string, string | null, string | null], { key: string }>(
    'SELECT key FROM web_chats WHERE owner = ? AND (? IS NULL OR key = ?)',
  );

  const save = db.transaction(
    (owner: string, key: string, run: WebChatRun, o: { title: string; keep: number; at: number }) => {
      const held = ownerOf.get(key)?.owner;
      if (held !== undefined && held !== owner) return false;
      if (held === undefined) insertChat.run(key, owner, o.title, o.at, o.at);
      else touch.run(o.at, key);
      dropRun.run(key, run.id);
      insertRun.run(key, run.id, JSON.stringify(run), o.at);
      trim.run(key, key, Math.max(1, o.keep));
      return true;
    },
  );
  const remove = db.transaction((owner: string, key: string) => {
    if (deleteChat.run(owner, key).changes === 0) return false;
    deleteRuns.run(key);
    return true;
  });
  const forget = db.transaction((owner: string, key: string | null) => {
    const keys = ownedKeys.all(owner, key, key).map((r) => r.key);
    for (const k of keys) {
      deleteChat.run(owner, k);
      deleteRuns.run(k);
    }
    return keys.length;
  });

  return {
    async listWebChats(owner, limit) {
      try {
        return list.all(owner, limit);
      } catch (err) {
        throw fail('list web chats', err);
      }
    },
    async webChat(owner, key) {
      try {
        return one.get(owner, key);
      } catch (err) {
        throw fail('read a web chat', err);
      }
    },
    async webChatRuns(owner, key) {
      try {
        return runs.all(owner, key).map((r) => JSON.parse(r.run) as WebChatRun);
      } catch (err) {
        throw fail('read a web chat', err);
      }
    },
    async saveWebChatRun(owner, key, run, options) {
      try {
        return save.immediate(owner, key, run, options);
      } catch (err) {
        throw fail('store a web chat answer', err);
      }
    },
    async renameWebChat(owner, key, title) {
      try {
        return rename.run(title, owner, key).changes > 0;
      } catch (err) {
        throw fail('rename a web chat', err);
      }
    },
    async deleteWebChat(owner, key) {
      try {
        return remove.immediate(owner, key);
      } catch (err) {
        throw fail('delete a web chat', err);
      }
    },
    async clearWebChatRuns(key) {
      try {
        deleteRuns.run(key);
      } catch (err) {
        throw fail('clear a web chat', err);
      }
    },
    async forgetWebChats(owner, key) {
      try {
        return forget.immediate(owner, key ?? null);
      } catch (err) {
        throw fail('forget web chats', err);
      }
    },
  };
}
