import { LISTED_QUESTION_CHARS } from '../core/ports/run-log-store.js';

// Votes on answers in the run's conversation after it and before the next answered run there.
const VOTES = (vote: 'up' | 'down') => `(SELECT COUNT(*) FROM feedback f
  WHERE f.key = u.key AND f.platform = u.platform AND f.vote = '${vote}' AND f.at >= u.at
    AND f.at < COALESCE((SELECT MIN(n.at) FROM usage n WHERE n.key = u.key AND n.at > u.at
      AND n.outcome = 'answered'), 9000000000000000))`;

/** The columns of a listed run (usage `u`, run log `r`), `tools` being how the engine reads `u.tools` as text. */
export const runColumns = (
  tools: string,
) => `u.id, u.at, u.platform, u.key, u.user_id, u.model, u.outcome, u.model_calls,
  u.prompt_tokens, u.completion_tokens, u.cached_tokens, u.duration_ms, ${tools},
  substr(r.question, 1, ${LISTED_QUESTION_CHARS}) AS question, ${VOTES('up')} AS up, ${VOTES('down')} AS down`;

/** Keeps a run's log; a run logged again keeps its latest question, answer and steps. */
export const UPSERT_RUN_LOG = `INSERT INTO run_logs (usage_id, at, platform, key, user_id, question, answer, steps)
  VALUES (@usageId, @at, @platform, @key, @userId, @question, @answer, @steps)
  ON CONFLICT (usage_id) DO UPDATE SET question = excluded.question, answer = excluded.answer,
    steps = excluded.steps`;

/** `%words%` for LIKE, with its wildcards escaped (`\` is the escape character). */
export function likePattern(search: string | undefined): string | null {
  const words = search?.trim();
  if (!words) return null;
  return `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** 👎 votes with a reason and the run each was about: the latest answered one in its conversation before it. */
export const LIST_DOWNVOTES = `SELECT d.platform, d.run_id, d.user_id, d.key, d.comment, d.at, d.usage_id, r.question, r.answer
  FROM (SELECT f.platform, f.run_id, f.user_id, f.key, f.comment, f.at,
      (SELECT u.id FROM usage u WHERE u.key = f.key AND u.platform = f.platform AND u.outcome = 'answered'
        AND u.at <= f.at ORDER BY u.at DESC, u.id DESC LIMIT 1) AS usage_id
    FROM feedback f WHERE f.vote = 'down' AND f.comment IS NOT NULL AND f.at >= @since AND f.at < @until
    ORDER BY f.at DESC LIMIT @limit) d
  LEFT JOIN run_logs r ON r.usage_id = d.usage_id
  ORDER BY d.at DESC`;
