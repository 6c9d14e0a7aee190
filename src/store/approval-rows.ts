import type { ApprovalOutcome, ApprovalRecord } from '../core/ports/approval-store.js';

/** An approval decision as both engines return it (bigints from Postgres become numbers here). */
export interface ApprovalRow {
  id: string;
  at: number | string;
  requested_at: number | string;
  platform: string;
  key: string;
  tool: string;
  args_digest: string;
  asker: string | null;
  decided_by: string | null;
  outcome: string;
  reason: string | null;
}

/** The record a row stands for. */
export function approvalOf(row: ApprovalRow): ApprovalRecord {
  return {
    id: row.id,
    at: Number(row.at),
    requestedAt: Number(row.requested_at),
    platform: row.platform,
    key: row.key,
    tool: row.tool,
    argsDigest: row.args_digest,
    outcome: row.outcome as ApprovalOutcome,
    ...(row.asker !== null ? { asker: row.asker } : {}),
    ...(row.decided_by !== null ? { decidedBy: row.decided_by } : {}),
    ...(row.reason !== null ? { reason: row.reason } : {}),
  };
}

/** Listed at most per query, whatever is asked. */
export const MAX_LISTED_APPROVALS = 1000;
