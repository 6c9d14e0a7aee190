import type Database from 'better-sqlite3';
import type { ThreadFollowStore } from '../../core/ports/thread-follow-store.js';
import { type FollowRow, followedThreadOf } from '../follow-rows.js';
import { sqliteRunner } from './sqlite-run.js';
import type { FailWith } from './sqlite-usage.js';

/** Followed threads in SQLite. */
export function sqliteFollows(db: Database.Database, fail: FailWith): ThreadFollowStore {
  const follow = db.prepare<[string, string, number, number, number]>(
    `INSERT INTO followed_threads (key, asker, last_at, stood_back) VALUES (?, ?, ?, 0)
     ON CONFLICT (key) DO UPDATE SET
       asker = CASE WHEN followed_threads.last_at < ? THEN excluded.asker ELSE followed_threads.asker END,
       stood_back = CASE WHEN followed_threads.last_at < ? THEN 0 ELSE followed_threads.stood_back END,
       last_at = MAX(followed_threads.last_at, excluded.last_at)`,
  );
  const one = db.prepare<[string], FollowRow>(
    'SELECT key, asker, last_at, stood_back FROM followed_threads WHERE key = ?',
  );
  const standBack = db.prepare<[string]>('UPDATE followed_threads SET stood_back = 1 WHERE key = ?');
  const forget = db.prepare<[number]>('DELETE FROM followed_threads WHERE last_at < ?');
  const run = sqliteRunner(fail);
  return {
    followThread: (key, asker, at, freshSince) =>
      run('follow a thread', () => {
        follow.run(key, asker, at, freshSince, freshSince);
      }),
    followedThread: (key) =>
      run('read a followed thread', () => {
        const row = one.get(key);
        return row ? followedThreadOf(row) : undefined;
      }),
    standBack: (key) =>
      run('stand back from a thread', () => {
        standBack.run(key);
      }),
    forgetFollowsBefore: (before) => run('forget idle threads', () => forget.run(before).changes),
  };
}
