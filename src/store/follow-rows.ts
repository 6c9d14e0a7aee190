import type { FollowedThread } from '../core/ports/thread-follow-store.js';

/** A `followed_threads` row as either driver returns it (Postgres BIGINT as text, SQLite booleans as 0/1). */
export interface FollowRow {
  key: string;
  asker: string;
  last_at: number | string;
  stood_back: number | boolean;
}

/** The followed thread a row holds. */
export function followedThreadOf(row: FollowRow): FollowedThread {
  return { key: row.key, asker: row.asker, lastAt: Number(row.last_at), stoodBack: Boolean(row.stood_back) };
}
