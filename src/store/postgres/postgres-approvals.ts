import type { ApprovalGrant, ApprovalStore } from '../../core/ports/approval-store.js';
import { type ApprovalRow, approvalOf, MAX_LISTED_APPROVALS } from '../approval-rows.js';
import { approvalParams, INSERT_APPROVAL, INSERT_GRANT } from '../approval-statements.js';
import { numbered } from '../numbered-params.js';
import type { PostgresDb } from './postgres-db.js';

const INSERT = numbered(INSERT_APPROVAL);
const LIST = 'SELECT * FROM approvals WHERE at >= $1 AND at < $2 ORDER BY at DESC, id LIMIT $3';
const GRANT = numbered(INSERT_GRANT);
const GRANTS = `SELECT settings_key AS "settingsKey", tool, granted_by AS "grantedBy", at FROM approval_grants
  WHERE settings_key = $1 ORDER BY tool`;

/** The approvals half of the Postgres store; each method is one statement. */
export function postgresApprovals(db: PostgresDb): ApprovalStore {
  return {
    async recordApproval(r) {
      await db.query('record an approval', INSERT.text, INSERT.values(approvalParams(r)));
    },
    async listApprovals(query) {
      const limit = Math.min(query.limit ?? 100, MAX_LISTED_APPROVALS);
      const { rows } = await db.query<ApprovalRow>('list approvals', LIST, [query.since, query.until, limit]);
      return rows.map(approvalOf);
    },
    async grantApproval(g) {
      await db.query('grant a tool', GRANT.text, GRANT.values(g));
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
