import type { WebSessionStore } from '../../core/ports/web-session-store.js';
import {
  WEB_SESSION_COLUMNS,
  type WebSessionRow,
  webSessionOf,
  webSessionValues,
} from '../web-session-rows.js';
import type { PostgresDb } from './postgres-db.js';

/** The web session half of the Postgres store; each method is one statement. */
export function postgresWebSessions(db: PostgresDb): WebSessionStore {
  return {
    async createWebSession(s) {
      await db.query(
        'start a web session',
        `INSERT INTO web_sessions (${WEB_SESSION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        webSessionValues(s),
      );
    },
    async webSession(id) {
      const { rows } = await db.query<WebSessionRow>(
        'read a web session',
        `SELECT ${WEB_SESSION_COLUMNS} FROM web_sessions WHERE id = $1`,
        [id],
      );
      return rows[0] && webSessionOf(rows[0]);
    },
    async touchWebSession(id, at) {
      await db.query(
        'record a web session’s use',
        'UPDATE web_sessions SET last_seen = GREATEST(last_seen, $1) WHERE id = $2',
        [at, id],
      );
    },
    async confirmWebSession(id, at, roles) {
      await db.query(
        'record a membership check',
        'UPDATE web_sessions SET checked_at = $1, roles = $2 WHERE id = $3',
        [at, JSON.stringify(roles), id],
      );
    },
    async deleteWebSession(id) {
      const { rowCount } = await db.query('end a web session', 'DELETE FROM web_sessions WHERE id = $1', [
        id,
      ]);
      return (rowCount ?? 0) > 0;
    },
    async deleteWebSessionsOf(principal) {
      const { rowCount } = await db.query(
        'end web sessions',
        'DELETE FROM web_sessions WHERE principal = $1',
        [principal],
      );
      return rowCount ?? 0;
    },
    async listWebSessions(limit) {
      const { rows } = await db.query<WebSessionRow>(
        'list web sessions',
        `SELECT ${WEB_SESSION_COLUMNS} FROM web_sessions ORDER BY last_seen DESC, id LIMIT $1`,
        [limit],
      );
      return rows.map((row) => ({ ...webSessionOf(row), grant: undefined }));
    },
    async deleteExpiredWebSessions(idleBefore, createdBefore) {
      const { rowCount } = await db.query(
        'end expired web sessions',
        'DELETE FROM web_sessions WHERE last_seen < $1 OR created_at < $2',
        [idleBefore, createdBefore],
      );
      return rowCount ?? 0;
    },
  };
}
