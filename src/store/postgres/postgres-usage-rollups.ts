/**
 * Totals of the `usage` table kept by a trigger, as on SQLite (see sqlite-usage-rollups.ts): per hour,
 * platform and model, and per UTC day the answered runs' durations, tool calls, and each person's and
 * conversation's questions and tokens. The trigger takes an updated row's old values out and puts its new
 * ones in, so a question admitted as pending and completed later is counted once, as completed.
 */

const TAKEN = "IN ('pending', 'answered', 'failed', 'cancelled')";
const DURATION = 'r.duration_ms::text';
const plus = (...columns: string[]) => columns.map((c) => `${c} = t.${c} + excluded.${c}`).join(', ');

/** Sums the records already there into the (empty) rollups. */
export const PG_USAGE_BACKFILL = `
  INSERT INTO usage_hours
    SELECT at / 3600000, platform, model, COUNT(*) FILTER (WHERE outcome ${TAKEN}),
      COUNT(*) FILTER (WHERE outcome = 'refused'), COUNT(*) FILTER (WHERE outcome = 'limited'),
      SUM(model_calls), SUM(prompt_tokens), SUM(completion_tokens), SUM(cached_tokens)
    FROM usage WHERE outcome <> 'pending' GROUP BY 1, 2, 3;
  INSERT INTO usage_day_durations
    SELECT at / 86400000, platform, model, length(duration_ms::text) * 100 + substr(duration_ms::text, 1, 2)::int,
      COUNT(*)
    FROM usage WHERE outcome = 'answered' GROUP BY 1, 2, 3, 4;
  INSERT INTO usage_day_tools
    SELECT u.at / 86400000, u.platform, u.model, j.key, SUM(j.value::int) FROM usage u, jsonb_each_text(u.tools) j
    WHERE u.outcome <> 'pending' GROUP BY 1, 2, 3, 4;
  INSERT INTO usage_day_people
    SELECT at / 86400000, user_id, platform, COUNT(*) FILTER (WHERE outcome ${TAKEN}), SUM(prompt_tokens),
      SUM(completion_tokens)
    FROM usage WHERE user_id IS NOT NULL AND outcome NOT IN ('summary', 'pending') GROUP BY 1, 2, 3;
  INSERT INTO usage_day_channels
    SELECT at / 86400000, key, platform, COUNT(*) FILTER (WHERE outcome ${TAKEN}), SUM(prompt_tokens),
      SUM(completion_tokens)
    FROM usage WHERE outcome NOT IN ('summary', 'pending') GROUP BY 1, 2, 3;
`;

/** The rollup tables, the trigger keeping them, and the records already there summed in. */
export const PG_USAGE_ROLLUPS = `
  CREATE TABLE usage_hours (
    hour BIGINT NOT NULL,
    platform TEXT NOT NULL,
    model TEXT NOT NULL,
    questions BIGINT NOT NULL,
    refused BIGINT NOT NULL,
    limited BIGINT NOT NULL,
    model_calls BIGINT NOT NULL,
    prompt_tokens BIGINT NOT NULL,
    completion_tokens BIGINT NOT NULL,
    cached_tokens BIGINT NOT NULL,
    PRIMARY KEY (hour, platform, model)
  );
  CREATE TABLE usage_day_durations (
    day BIGINT NOT NULL,
    platform TEXT NOT NULL,
    model TEXT NOT NULL,
    bucket INTEGER NOT NULL,
    runs BIGINT NOT NULL,
    PRIMARY KEY (day, platform, model, bucket)
  );
  CREATE TABLE usage_day_tools (
    day BIGINT NOT NULL,
    platform TEXT NOT NULL,
    model TEXT NOT NULL,
    tool TEXT NOT NULL,
    calls BIGINT NOT NULL,
    PRIMARY KEY (day, platform, model, tool)
  );
  CREATE TABLE usage_day_people (
    day BIGINT NOT NULL,
    user_id TEXT NOT NULL,
    platform TEXT NOT NULL,
    questions BIGINT NOT NULL,
    prompt_tokens BIGINT NOT NULL,
    completion_tokens BIGINT NOT NULL,
    PRIMARY KEY (day, user_id, platform)
  );
  CREATE TABLE usage_day_channels (
    day BIGINT NOT NULL,
    key TEXT NOT NULL,
    platform TEXT NOT NULL,
    questions BIGINT NOT NULL,
    prompt_tokens BIGINT NOT NULL,
    completion_tokens BIGINT NOT NULL,
    PRIMARY KEY (day, key, platform)
  );
  CREATE FUNCTION usage_rollup_add(r usage, s INTEGER) RETURNS void LANGUAGE sql
  SET search_path FROM CURRENT AS $$
    INSERT INTO usage_hours AS t VALUES (r.at / 3600000, r.platform, r.model,
      s * (r.outcome ${TAKEN})::int, s * (r.outcome = 'refused')::int, s * (r.outcome = 'limited')::int,
      s * r.model_calls, s * r.prompt_tokens, s * r.completion_tokens, s * r.cached_tokens)
    ON CONFLICT (hour, platform, model) DO UPDATE SET
      ${plus('questions', 'refused', 'limited', 'model_calls', 'prompt_tokens', 'completion_tokens', 'cached_tokens')};
    INSERT INTO usage_day_durations AS t
    SELECT r.at / 86400000, r.platform, r.model, length(${DURATION}) * 100 + substr(${DURATION}, 1, 2)::int, s
    WHERE r.outcome = 'answered'
    ON CONFLICT (day, platform, model, bucket) DO UPDATE SET ${plus('runs')};
    INSERT INTO usage_day_tools AS t
    SELECT r.at / 86400000, r.platform, r.model, j.key, s * j.value::int FROM jsonb_each_text(r.tools) j
    ON CONFLICT (day, platform, model, tool) DO UPDATE SET ${plus('calls')};
    INSERT INTO usage_day_people AS t
    SELECT r.at / 86400000, r.user_id, r.platform, s * (r.outcome ${TAKEN})::int, s * r.prompt_tokens,
      s * r.completion_tokens
    WHERE r.user_id IS NOT NULL AND r.outcome <> 'summary'
    ON CONFLICT (day, user_id, platform) DO UPDATE SET ${plus('questions', 'prompt_tokens', 'completion_tokens')};
    INSERT INTO usage_day_channels AS t
    SELECT r.at / 86400000, r.key, r.platform, s * (r.outcome ${TAKEN})::int, s * r.prompt_tokens,
      s * r.completion_tokens
    WHERE r.outcome <> 'summary'
    ON CONFLICT (day, key, platform) DO UPDATE SET ${plus('questions', 'prompt_tokens', 'completion_tokens')};
  $$;
  CREATE FUNCTION usage_rollup() RETURNS trigger LANGUAGE plpgsql
  SET search_path FROM CURRENT AS $$
  BEGIN
    -- A question is summed in once it has ended: its admission (pending) writes nothing here, so the
    -- rollups add no work (and no row locks) to the transaction that counts limits.
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.outcome <> 'pending' THEN PERFORM usage_rollup_add(OLD, -1); END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.outcome <> 'pending' THEN PERFORM usage_rollup_add(NEW, 1); END IF;
    RETURN NULL;
  END
  $$;
  CREATE TRIGGER usage_rollup AFTER INSERT OR UPDATE OR DELETE ON usage
    FOR EACH ROW EXECUTE FUNCTION usage_rollup();
  ${PG_USAGE_BACKFILL}
`;
