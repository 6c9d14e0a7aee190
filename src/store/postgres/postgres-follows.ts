import type { ThreadFollowStore } from '../../core/ports/thread-follow-store.js';
import { type FollowRow, followedThreadOf } from '../follow-rows.js';
import type { PostgresDb } from './postgres-db.js';

/** Followed threads in Postgres, shared by every replica. */
export function postgresFollows(db: PostgresDb): ThreadFollowStore {
  return {
    async followThread(key, asker, at, freshSince) {
      await db.query(
        'follow a thread',
        `INSERT INTO followed_threads (key, asker, last_at, stood_back) VALUES ($1, $2, $3, FALSE)
         ON CONFLICT (key) DO UPDATE SET
           asker = CASE WHEN followed_threads.last_at < $4 THEN excluded.asker ELSE followed_threads.asker END,
           stood_back = CASE WHEN followed_threads.last_at < $4 THEN FALSE ELSE followed_threads.stood_back END,
           last_at = GREATEST(followed_threads.last_at, excluded.last_at)`,
        [key, asker, at, freshSince],
      );
    },
    async followedThread(key) {
      const { rows } = await db.query<FollowRow>(
        'read a followed thread',
        'SELECT key, asker, last_at, stood_back FROM followed_threads WHERE key = $1',
        [key],
      );
      return rows[0] ? followedThreadOf(rows[0]) : undefined;
    },
    async standBack(key) {
      await db.query(
        'stand back from a thread',
        'UPDATE followed_threads SET stood_back = TRUE WHERE key = $1',
        [key],
      );
    },
    async forgetFollowsBefore(before) {
      const result = await db.query(
        'forget idle threads',
        'DELETE FROM followed_threads WHERE last_at < $1',
        [before],
      );
      return result.rowCount ?? 0;
    },
  };
}
