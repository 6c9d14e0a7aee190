import type { ApprovalRecord } from '../core/ports/approval-store.js';

/** Records a decision once per id; `@name` parameters (numbered for Postgres by numbered-params.ts). */
export const INSERT_APPROVAL = `INSERT INTO approvals (id, at, requested_at, platform, key, tool, args_digest, asker, decided_by, outcome, reason)
  VALUES (@id, @at, @requestedAt, @platform, @key, @tool, @argsDigest, @asker, @decidedBy, @outcome, @reason)
  ON CONFLICT (id) DO NOTHING`;

/** Grants a tool in a channel; granting it again changes nothing. */
export const INSERT_GRANT = `INSERT INTO approval_grants (settings_key, tool, granted_by, at) VALUES (@settingsKey, @tool, @grantedBy, @at)
  ON CONFLICT (settings_key, tool) DO NOTHING`;

/** A record's statement parameters, what it leaves out as NULL. */
export function approvalParams(r: ApprovalRecord) {
  return { ...r, asker: r.asker ?? null, decidedBy: r.decidedBy ?? null, reason: r.reason ?? null };
}
