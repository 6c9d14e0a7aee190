import type { ApprovalWait, WaitDecision } from '../core/ports/approval-wait-store.js';

/**
 * The migration that adds `approval_waits`, one text for both engines: tool calls waiting for a person, each
 * with what resuming its run needs (`state`, JSON) and, once someone pressed, the decision (`decision`, JSON).
 */
export function approvalWaitsMigration(engine: 'sqlite' | 'postgres'): string {
  const ms = engine === 'sqlite' ? 'INTEGER' : 'BIGINT';
  return `
  CREATE TABLE approval_waits (
    id TEXT PRIMARY KEY,
    run_id TEXT NOT NULL,
    platform TEXT NOT NULL,
    key TEXT NOT NULL,
    tool TEXT NOT NULL,
    asker TEXT,
    requested_at ${ms} NOT NULL,
    expires_at ${ms} NOT NULL,
    owner TEXT NOT NULL,
    seen_at ${ms} NOT NULL,
    state TEXT NOT NULL,
    decision TEXT,
    decided_at ${ms}
  )${engine === 'sqlite' ? ' STRICT' : ''};
  CREATE INDEX approval_waits_by_owner ON approval_waits (owner);
  CREATE INDEX approval_waits_by_run ON approval_waits (run_id);
  CREATE INDEX approval_waits_by_seen ON approval_waits (seen_at);
`;
}

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

/** Orphans that can go on: their process is gone (not seen since the first parameter), and decided or expired. */
export const ORPHANED = 'seen_at < $1 AND (decided_at IS NOT NULL OR expires_at <= $2)';
