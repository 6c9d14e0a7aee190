/** Keeps one vote per person and answer: a later vote replaces it, a comment stays unless a new one comes. */
export const UPSERT_FEEDBACK = `INSERT INTO feedback (platform, run_id, user_id, key, vote, comment, at)
  VALUES (@platform, @runId, @userId, @key, @vote, @comment, @at)
  ON CONFLICT (platform, run_id, user_id) DO UPDATE
    SET vote = excluded.vote, at = excluded.at, comment = COALESCE(excluded.comment, feedback.comment)`;
