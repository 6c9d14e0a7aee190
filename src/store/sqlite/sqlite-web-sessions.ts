import type Database from 'better-sqlite3';
import type { WebSessionStore } from '../../core/ports/web-session-store.js';
import {
  WEB_SESSION_COLUMNS,
  type WebSessionRow,
  webSessionOf,
  webSessionValues,
} from '../web-session-rows.js';
import { sqliteRunner } from './sqlite-run.js';
import type { FailWith } from './sqlite-usage.js';

/** The web session half of the SQLite store. */
export function sqliteWebSessions(db: Database.Database, fail: FailWith): WebSessionStore {
  const insert = db.prepare(
    `INSERT INTO web_sessions (${WEB_SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const one = db.prepare<[string], WebSessionRow>(
    `SELECT ${WEB_SESSION_COLUMNS} FROM web_sessions WHERE id = ?`,
  );
  const touch = db.prepare<[number, string]>(
    'UPDATE web_sessions SET last_seen = MAX(last_seen, ?) WHERE id = ?',
  );
  const confirm = db.prepare<[number, string, string]>(
    'UPDATE web_sessions SET checked_at = ?, roles = ? WHERE id = ?',
  );
  const remove = db.prepare<[string]>('DELETE FROM web_sessions WHERE id = ?');
  const removeOf = db.prepare<[string]>('DELETE FROM web_sessions WHERE principal = ?');
  const list = db.prepare<[number], WebSessionRow>(
    `SELECT ${WEB_SESSION_COLUMNS} FROM web_sessions ORDER BY last_seen DESC, id LIMIT ?`,
  );
  const expire = db.prepare<[number, number]>(
    'DELETE FROM web_sessions WHERE last_seen < ? OR created_at < ?',
  );
  const run = sqliteRunner(fail);
  return {
    createWebSession: (s) => run('start a web session', () => void insert.run(...webSessionValues(s))),
    webSession: (id) =>
      run('read a web session', () => {
        const row = one.get(id);
        return row && webSessionOf(row);
      }),
    touchWebSession: (id, at) => run('record a web session’s use', () => void touch.run(at, id)),
    confirmWebSession: (id, at, roles) =>
      run('record a membership check', () => void confirm.run(at, JSON.stringify(roles), id)),
    deleteWebSession: (id) => run('end a web session', () => remove.run(id).changes > 0),
    deleteWebSessionsOf: (principal) => run('end web sessions', () => removeOf.run(principal).changes),
    listWebSessions: (limit) =>
      run('list web sessions', () =>
        list.all(limit).map((row) => ({ ...webSessionOf(row), grant: undefined })),
      ),
    deleteExpiredWebSessions: (idleBefore, createdBefore) =>
      run('end expired web sessions', () => expire.run(idleBefore, createdBefore).changes),
  };
}
