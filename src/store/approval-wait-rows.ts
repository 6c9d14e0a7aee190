import type { ApprovalWait, WaitDecision } from '../core/ports/approval-wait-store.js';

/** A wait as both engines return it (bigints from Postgres become numbers here). */
export interface ApprovalWaitRow {
  id: string;
  run_id: string;
  platform: string;
  key: string;
  tool: string;
  asker: string | null;
  requested_at: number | string;
  expires_at: number | string;
  owner: string;
  seen_at: number | string;
  state: string;
  decision: string | null;
}

/** The wait a row stands for. */
export function approvalWaitOf(row: ApprovalWaitRow): ApprovalWait {
  return {
    id: row.id,
    runId: row.run_id,
    platform: row.platform,
    key: row.key,
    tool: row.tool,
    ...(row.asker !== null ? { asker: row.asker } : {}),
    requestedAt: Number(row.requested_at),
    expiresAt: Number(row.expires_at),
    owner: row.owner,
    seenAt: Number(row.seen_at),
    state: row.state,
    ...(row.decision !== null ? { decision: JSON.parse(row.decision) as WaitDecision } : {}),
  };
}

/** The columns of a new wait, in the order both engines' INSERT takes them. */
export function approvalWaitValues(w: ApprovalWait): unknown[] {
  return [
    w.id,
    w.runId,
    w.platform,
    w.key,
    w.tool,
    w.asker ?? null,
    w.requestedAt,
    w.expiresAt,
    w.owner,
    w.seenAt,
    w.state,
    w.decision ? JSON.stringify(w.decision) : null,
    w.decision?.at ?? null,
  ];
}

/** Undecided waits in one conversation (`@key`). */
export const WAITING_IN =
  'SELECT * FROM approval_waits WHERE key = @key AND decided_at IS NULL ORDER BY requested_at, id LIMIT 50';

/** Orphans that can go on: their process is gone (not seen since `@staleBefore`), and decided or expired by `@now`. */
export const ORPHANED = 'seen_at < @staleBefore AND (decided_at IS NOT NULL OR expires_at <= @now)';
