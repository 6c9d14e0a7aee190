import type Database from 'better-sqlite3';
import type { ApprovalGrant, ApprovalStore } from '../../core/ports/approval-store.js';
import { type ApprovalRow, approvalOf, MAX_LISTED_APPROVALS } from '../approval-rows.js';
import { approvalParams, INSERT_APPROVAL, INSERT_GRANT } from '../approval-statements.js';
import type { FailWith } from './sqlite-usage.js';

const LIST = `SELECT * FROM approvals WHERE at >= ? AND at < ? ORDER BY at DESC, id LIMIT ?`;
const GRANTS = `SELECT settings_key AS settingsKey, tool, granted_by AS grantedBy, at FROM approval_grants
  WHERE settings_key = ? ORDER BY tool`;

/** The approvals half of the SQLite store. */
export function sqliteApprovals(db: Database.Database, fail: FailWith): ApprovalStore {
  const insert = db.prepare(INSERT_APPROVAL);
  const list = db.prepare<[number, number, number], ApprovalRow>(LIST);
  const grant = db.prepare(INSERT_GRANT);
  const grants = db.prepare<[string], ApprovalGrant>(GRANTS);
  const revokeOne = db.prepare('DELETE FROM approval_grants WHERE settings_key = ? AND tool = ?');
  const revokeAll = db.prepare('DELETE FROM approval_grants WHERE settings_key = ?');
  return {
    async recordApproval(r) {
      try {
        insert.run(approvalParams(r));
      } catch (err) {
        throw fail('record an approval', err);
      }
    },
    async listApprovals(query) {
      try {
        const limit = Math.min(query.limit ?? 100, MAX_LISTED_APPROVALS);
        return list.all(query.since, query.until, limit).map(approvalOf);
      } catch (err) {
        throw fail('list approvals', err);
      }
    },
    async grantApproval(g) {
      try {
        grant.run(g);
      } catch (err) {
        throw fail('grant a tool', err);
      }
    },
    async approvalGrants(settingsKey) {
      try {
        return grants.all(settingsKey);
      } catch (err) {
        throw fail('read approval grants', err);
      }
    },
    async revokeApprovalGrants(settingsKey, tool) {
      try {
        const result = tool === undefined ? revokeAll.run(settingsKey) : revokeOne.run(settingsKey, tool);
        return result.changes;
      } catch (err) {
        throw fail('revoke approval grants', err);
      }
    },
  };
}
