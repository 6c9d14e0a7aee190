import type { ApprovalGrant, ApprovalStore } from '../../core/ports/approval-store.js';
import { type ApprovalRow, approvalOf, MAX_LISTED_APPROVALS } from '../approval-rows.js';
import type { PostgresDb } from './postgres-db.js';

const INSERT = `INSERT INTO approvals (id, at, requested_at, platform, key, tool, args_digest, asker, decided_by, outcome, reason)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (id) DO NOTHING`;
const LIST = 'SELECT * FROM approvals WHERE at >= $1 AND at < $2 ORDER BY at DESC, id LIMIT $3';
const GRANT = `INSERT INTO approval_grants (settings_key, tool, granted_by, at) VALUES ($1, $2, $3, $4)
  ON CONFLICT (settings_key, tool) DO NOTHING`;
const GRANTS = `SELECT settings_key AS "settingsKey", tool, granted_by AS "grantedBy", at FROM approval_grants
  WHERE settings_key = $1 ORDER BY tool`;

/** The approvals half of the Postgres store; each method is one statement. */
export function postgresApprovals(db: PostgresDb): ApprovalStore {
  return {
    async recordApproval(r) {
      await db.query('record an approval', INSERT, [
        r.id,
        r.at,
        r.requestedAt,
        r.platform,
        r.key,
        r.tool,
        r.argsDigest,
        r.asker ?? null,
        r.decidedBy ?? null,
        r.outcome,
        r.reason ?? null,
      ]);
    },
    async listApprovals(query) {
      const limit = Math.min(query.limit ?? 100, MAX_LISTED_APPROVALS);
      const { rows } = await db.query<ApprovalRow>('list approvals', LIST, [query.since, query.until, limit]);
      return rows.map(approvalOf);
    },
    async grantApproval(g) {
      await db.query('grant a tool', GRANT, [g.settingsKey, g.tool, g.grantedBy, g.at]);
    },
    async approvalGrants(settingsKey) {
      const { rows } = await db.query<ApprovalGrant & { at: string | number }>(
        'read approval grants',
        GRANTS,
        [settingsKey],
      );
      return rows.map((row) => ({ ...row, at: Number(row.at) }));
    },
    async revokeApprovalGrants(settingsKey, tool) {
      const { rowCount } =
        tool === undefined
          ? await db.query('revoke approval grants', 'DELETE FROM approval_grants WHERE settings_key = $1', [
              settingsKey,
            ])
          : await db.query(
              'revoke approval grants',
              'DELETE FROM approval_grants WHERE settings_key = $1 AND tool = $2',
              [settingsKey, tool],
            );
      return rowCount ?? 0;
    },
  };
}
