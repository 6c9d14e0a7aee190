import type Database from 'better-sqlite3';
import type { FeedbackStore, FeedbackTotals } from '../../core/ports/feedback-store.js';
import { UPSERT_FEEDBACK } from '../feedback-statements.js';
import type { FailWith } from './sqlite-usage.js';

const TOTALS = `SELECT COALESCE(SUM(vote = 'up'), 0) AS up, COALESCE(SUM(vote = 'down'), 0) AS down,
  COALESCE(SUM(comment IS NOT NULL), 0) AS comments FROM feedback WHERE at >= @since AND at < @until AND (@platform IS NULL OR platform = @platform)`;

/** The feedback half of the SQLite store. */
export function sqliteFeedback(db: Database.Database, fail: FailWith): FeedbackStore {
  const upsert = db.prepare(UPSERT_FEEDBACK);
  const totals = db.prepare<[{ since: number; until: number; platform: string | null }], FeedbackTotals>(
    TOTALS,
  );
  return {
    async recordFeedback(entry) {
      try {
        upsert.run({ ...entry, comment: entry.comment ?? null });
      } catch (err) {
        throw fail('store feedback', err);
      }
    },
    async feedbackTotals(query) {
      try {
        const row = totals.get({ since: query.since, until: query.until, platform: query.platform ?? null });
        return { up: row?.up ?? 0, down: row?.down ?? 0, comments: row?.comments ?? 0 };
      } catch (err) {
        throw fail('count feedback', err);
      }
    },
  };
}
