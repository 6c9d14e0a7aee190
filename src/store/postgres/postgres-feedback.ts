import type { FeedbackStore } from '../../core/ports/feedback-store.js';
import type { PostgresDb } from './postgres-db.js';

const UPSERT = `INSERT INTO feedback (platform, run_id, user_id, key, vote, comment, at)
  VALUES ($1, $2, $3, $4, $5, $6, $7)
  ON CONFLICT (platform, run_id, user_id) DO UPDATE
    SET vote = excluded.vote, at = excluded.at, comment = COALESCE(excluded.comment, feedback.comment)`;
const TOTALS = `SELECT COUNT(*) FILTER (WHERE vote = 'up') AS up, COUNT(*) FILTER (WHERE vote = 'down') AS down,
  COUNT(comment) AS comments FROM feedback WHERE at >= $1 AND at < $2 AND ($3::text IS NULL OR platform = $3)`;

/** The feedback half of the Postgres store; each method is one statement. */
export function postgresFeedback(db: PostgresDb): FeedbackStore {
  return {
    async recordFeedback(e) {
      await db.query('store feedback', UPSERT, [
        e.platform,
        e.runId,
        e.userId,
        e.key,
        e.vote,
        e.comment ?? null,
        e.at,
      ]);
    },
    async feedbackTotals(query) {
      const { rows } = await db.query<{ up: number; down: number; comments: number }>(
        'count feedback',
        TOTALS,
        [query.since, query.until, query.platform ?? null],
      );
      const row = rows[0];
      return { up: Number(row?.up ?? 0), down: Number(row?.down ?? 0), comments: Number(row?.comments ?? 0) };
    },
  };
}
