import { createHash } from 'node:crypto';
import {
  FORGOTTEN_KINDS,
  type ForgetReport,
  type ForgetRequest,
  type ForgottenKind,
} from '../core/ports/archive-store.js';

/** What a usage record (or a channel's grant) says instead of the person, once they asked to be forgotten. */
export const FORGOTTEN_USER = 'forgotten';

/**
 * The one-way pseudonym a person's recent usage records carry after forget-me: limits count it with the
 * principal, so forgetting oneself never resets a budget, and no row names the person.
 */
export function forgottenAlias(principal: string): string {
  return `${FORGOTTEN_USER}:${createHash('sha256').update(principal).digest('hex').slice(0, 24)}`;
}

/** One statement of forget-me, the kind its changed rows count as (none: not counted), SQL by engine. */
export interface ForgetStep {
  kind?: ForgottenKind;
  sqlite: string;
  postgres: string;
}

// `@name` parameters (numbered for Postgres): principal, key (NULL for --everywhere), keptSince, forgotten,
// alias. The key is cast so Postgres knows its type where it is only tested for NULL.
const IN_SCOPE = (column = 'key') => `(CAST(@key AS TEXT) IS NULL OR ${column} = @key)`;
const OWNED_CHATS = `SELECT key FROM web_chats WHERE owner = @principal AND ${IN_SCOPE()}`;
const ZERO_PEOPLE_ROWS = `DELETE FROM usage_day_people
  WHERE (user_id = @principal OR user_id LIKE 'forgotten:%')
    AND questions = 0 AND prompt_tokens = 0 AND completion_tokens = 0`;

const both = (sql: string, kind?: ForgottenKind): ForgetStep => ({
  ...(kind ? { kind } : {}),
  sqlite: sql,
  postgres: sql,
});

/**
 * Every statement of forget-me, run in order in one transaction. Usage records are moved, not deleted: the
 * rollup triggers move their totals with them (to `forgotten` or the pseudonym), so the admin page's totals
 * stay right, and the person's rollup rows, left at zero, are dropped. Approval records keep their counts
 * without the person: asker and decider become NULL and the reason (free text) goes.
 */
export const FORGET_STEPS: readonly ForgetStep[] = [
  // Their web chats whole: the conversation's summary and its shown runs, then the chats.
  both(`DELETE FROM conversations WHERE key IN (${OWNED_CHATS})`),
  both(`DELETE FROM web_chat_runs WHERE key IN (${OWNED_CHATS})`),
  both(`DELETE FROM web_chats WHERE owner = @principal AND ${IN_SCOPE()}`, 'webChats'),
  both(`DELETE FROM archive WHERE principal = @principal AND ${IN_SCOPE()}`, 'turns'),
  both(`DELETE FROM turns WHERE principal = @principal AND ${IN_SCOPE()}`),
  both(`DELETE FROM notes WHERE (author = @principal OR subject = @principal) AND ${IN_SCOPE()}`, 'notes'),
  both(`DELETE FROM schedules WHERE creator = @principal AND ${IN_SCOPE()}`, 'schedules'),
  both(`DELETE FROM feedback WHERE user_id = @principal AND ${IN_SCOPE()}`, 'votes'),
  both(
    `DELETE FROM run_log_tools WHERE usage_id IN
      (SELECT usage_id FROM run_logs WHERE user_id = @principal AND ${IN_SCOPE()})`,
  ),
  both(`DELETE FROM run_logs WHERE user_id = @principal AND ${IN_SCOPE()}`, 'runLogs'),
  both(
    `UPDATE usage SET user_id = CASE WHEN at < @keptSince THEN @forgotten ELSE @alias END,
        origin = CASE WHEN at < @keptSince THEN NULL ELSE origin END
      WHERE user_id = @principal AND ${IN_SCOPE()}`,
    'usage',
  ),
  // Anyone's pseudonymous records old enough that no limit counts them any more.
  both(
    `UPDATE usage SET user_id = @forgotten, origin = NULL WHERE user_id LIKE 'forgotten:%' AND at < @keptSince`,
  ),
  both(ZERO_PEOPLE_ROWS),
  both(
    `UPDATE approvals SET reason = NULL,
        asker = CASE WHEN asker = @principal THEN NULL ELSE asker END,
        decided_by = CASE WHEN decided_by = @principal THEN NULL ELSE decided_by END
      WHERE (asker = @principal OR decided_by = @principal) AND ${IN_SCOPE()}`,
    'approvals',
  ),
  both(
    `UPDATE approval_grants SET granted_by = @forgotten WHERE granted_by = @principal AND ${IN_SCOPE('settings_key')}`,
    'approvals',
  ),
  // A call of theirs still waiting is dropped (its run, if alive, sees it expire); a press of theirs on
  // someone else's call keeps its outcome without who pressed and why.
  both(`DELETE FROM approval_waits WHERE asker = @principal AND ${IN_SCOPE()}`, 'waitingCalls'),
  {
    kind: 'approvals',
    sqlite: `UPDATE approval_waits SET decision = json_remove(decision, '$.by', '$.byName', '$.reason')
      WHERE json_extract(decision, '$.by') = @principal AND ${IN_SCOPE()}`,
    postgres: `UPDATE approval_waits SET decision = (decision::jsonb - 'by' - 'byName' - 'reason')::text
      WHERE decision::jsonb ->> 'by' = @principal AND ${IN_SCOPE()}`,
  },
  // Signed-in web sessions belong to no channel: only forgetting everywhere signs the person out.
  both(`DELETE FROM web_sessions WHERE principal = @principal AND CAST(@key AS TEXT) IS NULL`, 'sessions'),
  // Files they shared in a channel: the passages, then the files.
  both(
    `DELETE FROM knowledge_passages WHERE EXISTS (SELECT 1 FROM knowledge_files f
      WHERE f.scope = knowledge_passages.scope AND f.path = knowledge_passages.path
        AND f.shared_by = @principal AND ${IN_SCOPE('f.scope')})`,
  ),
  both(`DELETE FROM knowledge_files WHERE shared_by = @principal AND ${IN_SCOPE('scope')}`),
  // Threads followed for them, in the channel (its threads' keys extend its own) or everywhere.
  both(
    `DELETE FROM followed_threads WHERE asker = @principal
      AND (CAST(@key AS TEXT) IS NULL OR key = @key OR key LIKE @key || ':%')`,
  ),
];

/** The parameters of a forget-me's statements. */
export function forgetParams(request: ForgetRequest) {
  return {
    principal: request.principal,
    key: request.key ?? null,
    keptSince: request.usageKeptSince,
    forgotten: FORGOTTEN_USER,
    alias: forgottenAlias(request.principal),
  };
}

/** A report of nothing removed yet, to count into. */
export function emptyReport(): ForgetReport {
  return Object.fromEntries(Object.keys(FORGOTTEN_KINDS).map((kind) => [kind, 0])) as ForgetReport;
}
