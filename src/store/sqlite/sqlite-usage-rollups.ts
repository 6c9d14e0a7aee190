/**
 * Totals of the `usage` table kept by triggers, so the admin page reads a period in a few thousand rows
 * instead of every record: per hour, platform and model (the daily charts; hours let any whole-hour zone cut
 * its own days), and per UTC day the answered runs' durations (two significant digits), tool calls, and each
 * person's and conversation's questions and tokens. An insert adds a record, an update takes the old row
 * out and puts the new one in, a delete takes it out; records already there are summed in once. Questions
 * still pending are left out until they end.
 */

const TAKEN = "IN ('pending', 'answered', 'failed', 'cancelled')";
const DURATION = 'CAST(r.duration_ms AS TEXT)';
// A question is summed in once it has ended: its admission (pending) writes nothing here, so the rollups
// add no work to the transaction that counts limits.
const ENDED = "r.outcome <> 'pending'";

/** The statements adding row `r` (NEW or OLD) with sign `s` (1 or -1) to every rollup. */
function add(row: 'NEW' | 'OLD', s: 1 | -1): string {
  const r = (sql: string) => sql.replaceAll('r.', `${row}.`);
  const n = (sql: string) => `${s} * (${sql})`;
  const plus = (...columns: string[]) => columns.map((c) => `${c} = ${c} + excluded.${c}`).join(', ');
  return r(`
    INSERT INTO usage_hours (hour, platform, model, questions, refused, limited, model_calls, prompt_tokens,
      completion_tokens, cached_tokens)
    SELECT r.at / 3600000, r.platform, r.model, ${n(`r.outcome ${TAKEN}`)}, ${n("r.outcome = 'refused'")},
      ${n("r.outcome = 'limited'")}, ${n('r.model_calls')}, ${n('r.prompt_tokens')}, ${n('r.completion_tokens')},
      ${n('r.cached_tokens')}
    WHERE ${ENDED}
    ON CONFLICT (hour, platform, model) DO UPDATE SET
      ${plus('questions', 'refused', 'limited', 'model_calls', 'prompt_tokens', 'completion_tokens', 'cached_tokens')};
    INSERT INTO usage_day_durations (day, platform, model, bucket, runs)
    SELECT r.at / 86400000, r.platform, r.model,
      length(${DURATION}) * 100 + CAST(substr(${DURATION}, 1, 2) AS INTEGER), ${s}
    WHERE r.outcome = 'answered'
    ON CONFLICT (day, platform, model, bucket) DO UPDATE SET ${plus('runs')};
    INSERT INTO usage_day_tools (day, platform, model, tool, calls)
    SELECT r.at / 86400000, r.platform, r.model, j.key, ${n('j.value')} FROM json_each(r.tools) j WHERE true
    ON CONFLICT (day, platform, model, tool) DO UPDATE SET ${plus('calls')};
    INSERT INTO usage_day_people (day, user_id, platform, questions, prompt_tokens, completion_tokens)
    SELECT r.at / 86400000, r.user_id, r.platform, ${n(`r.outcome ${TAKEN}`)}, ${n('r.prompt_tokens')},
      ${n('r.completion_tokens')}
    WHERE ${ENDED} AND r.user_id IS NOT NULL AND r.outcome <> 'summary'
    ON CONFLICT (day, user_id, platform) DO UPDATE SET ${plus('questions', 'prompt_tokens', 'completion_tokens')};
    INSERT INTO usage_day_channels (day, key, platform, questions, prompt_tokens, completion_tokens)
    SELECT r.at / 86400000, r.key, r.platform, ${n(`r.outcome ${TAKEN}`)}, ${n('r.prompt_tokens')},
      ${n('r.completion_tokens')}
    WHERE ${ENDED} AND r.outcome <> 'summary'
    ON CONFLICT (day, key, platform) DO UPDATE SET ${plus('questions', 'prompt_tokens', 'completion_tokens')};
  `);
}

/** The rollup tables, their triggers, and the records already there summed in. */
export const SQLITE_USAGE_ROLLUPS = `
  CREATE TABLE usage_hours (
    hour INTEGER NOT NULL,
    platform TEXT NOT NULL,
    model TEXT NOT NULL,
    questions INTEGER NOT NULL,
    refused INTEGER NOT NULL,
    limited INTEGER NOT NULL,
    model_calls INTEGER NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    cached_tokens INTEGER NOT NULL,
    PRIMARY KEY (hour, platform, model)
  ) STRICT, WITHOUT ROWID;
  CREATE TABLE usage_day_durations (
    day INTEGER NOT NULL,
    platform TEXT NOT NULL,
    model TEXT NOT NULL,
    bucket INTEGER NOT NULL,
    runs INTEGER NOT NULL,
    PRIMARY KEY (day, platform, model, bucket)
  ) STRICT, WITHOUT ROWID;
  CREATE TABLE usage_day_tools (
    day INTEGER NOT NULL,
    platform TEXT NOT NULL,
    model TEXT NOT NULL,
    tool TEXT NOT NULL,
    calls INTEGER NOT NULL,
    PRIMARY KEY (day, platform, model, tool)
  ) STRICT, WITHOUT ROWID;
  CREATE TABLE usage_day_people (
    day INTEGER NOT NULL,
    user_id TEXT NOT NULL,
    platform TEXT NOT NULL,
    questions INTEGER NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    PRIMARY KEY (day, user_id, platform)
  ) STRICT, WITHOUT ROWID;
  CREATE TABLE usage_day_channels (
    day INTEGER NOT NULL,
    key TEXT NOT NULL,
    platform TEXT NOT NULL,
    questions INTEGER NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    PRIMARY KEY (day, key, platform)
  ) STRICT, WITHOUT ROWID;
  CREATE TRIGGER usage_rollup_insert AFTER INSERT ON usage BEGIN ${add('NEW', 1)} END;
  CREATE TRIGGER usage_rollup_update AFTER UPDATE ON usage BEGIN ${add('OLD', -1)} ${add('NEW', 1)} END;
  CREATE TRIGGER usage_rollup_delete AFTER DELETE ON usage BEGIN ${add('OLD', -1)} END;
  INSERT INTO usage_hours
    SELECT at / 3600000, platform, model, SUM(outcome ${TAKEN}), SUM(outcome = 'refused'), SUM(outcome = 'limited'),
      SUM(model_calls), SUM(prompt_tokens), SUM(completion_tokens), SUM(cached_tokens)
    FROM usage WHERE outcome <> 'pending' GROUP BY 1, 2, 3;
  INSERT INTO usage_day_durations
    SELECT at / 86400000, platform, model,
      length(CAST(duration_ms AS TEXT)) * 100 + CAST(substr(CAST(duration_ms AS TEXT), 1, 2) AS INTEGER), COUNT(*)
    FROM usage WHERE outcome = 'answered' GROUP BY 1, 2, 3, 4;
  INSERT INTO usage_day_tools
    SELECT u.at / 86400000, u.platform, u.model, j.key, SUM(j.value) FROM usage u, json_each(u.tools) j
    WHERE u.outcome <> 'pending' GROUP BY 1, 2, 3, 4;
  INSERT INTO usage_day_people
    SELECT at / 86400000, user_id, platform, SUM(outcome ${TAKEN}), SUM(prompt_tokens), SUM(completion_tokens)
    FROM usage WHERE user_id IS NOT NULL AND outcome NOT IN ('summary', 'pending') GROUP BY 1, 2, 3;
  INSERT INTO usage_day_channels
    SELECT at / 86400000, key, platform, SUM(outcome ${TAKEN}), SUM(prompt_tokens), SUM(completion_tokens)
    FROM usage WHERE outcome NOT IN ('summary', 'pending') GROUP BY 1, 2, 3;
`;
