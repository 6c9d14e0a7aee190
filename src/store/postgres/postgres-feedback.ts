import type { FeedbackStore } from '../../core/ports/feedback-store.js';
import { UPSERT_FEEDBACK } from '../feedback-statements.js';
import { numbered } from '../numbered-params.js';
import type { PostgresDb } from './postgres-db.js';

const UPSERT = numbered(UPSERT_FEEDBACK);
const TOTALS = `SELECT COUNT(*) FILTER (WHERE vote = 'up') AS up, COUNT(*) FILTER (WHERE vote = 'down') AS down,
  COUNT(comment) AS comments FROM feedback WHERE at >= $1 AND at < $2 AND ($3::text IS NULL OR platform = $3)`;

/** The feedback half of the Postgres store; each method is one statement. */
export function postgresFeedback(db: PostgresDb): FeedbackStore {
  return {
    async recordFeedback(e) {
      await db.query('store feedback', UPSERT.text, UPSERT.values({ ...e, comment: e.comment ?? null }));
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
