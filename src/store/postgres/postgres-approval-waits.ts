import type { ApprovalWaitStore, WaitDecision } from '../../core/ports/approval-wait-store.js';
import {
  type ApprovalWaitRow,
  approvalWaitOf,
  approvalWaitValues,
  ORPHANED,
  WAITING_IN,
} from '../approval-wait-rows.js';
import { numbered } from '../numbered-params.js';
import type { PostgresDb } from './postgres-db.js';

const INSERT = `INSERT INTO approval_waits (id, run_id, platform, key, tool, asker, requested_at, expires_at, owner,
  seen_at, state, decision, decided_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`;
const DECIDE =
  'UPDATE approval_waits SET decision = $1, decided_at = $2 WHERE id = $3 AND decided_at IS NULL RETURNING *';
// Replicas sweep at once: rows another one is taking are skipped, and a run is taken whole.
const CLAIM = numbered(`WITH picked AS (
  SELECT run_id FROM approval_waits WHERE ${ORPHANED} AND platform = ANY(@platforms::text[])
   LIMIT @limit FOR UPDATE SKIP LOCKED)
DELETE FROM approval_waits WHERE run_id IN (SELECT run_id FROM picked) RETURNING *`);

const WAITING = numbered(WAITING_IN);

/** The approval-waits half of the Postgres store; each method is one statement. */
export function postgresApprovalWaits(db: PostgresDb): ApprovalWaitStore {
  return {
    async saveWait(wait) {
      await db.query('keep a waiting tool call', INSERT, approvalWaitValues(wait));
    },
    async getWait(id) {
      const { rows } = await db.query<ApprovalWaitRow>(
        'read a waiting tool call',
        'SELECT * FROM approval_waits WHERE id = $1',
        [id],
      );
      return rows[0] && approvalWaitOf(rows[0]);
    },
    async decideWait(id, decision) {
      const { rows } = await db.query<ApprovalWaitRow>('decide a waiting tool call', DECIDE, [
        JSON.stringify(decision),
        decision.at,
        id,
      ]);
      return rows[0] && approvalWaitOf(rows[0]);
    },
    async touchWaits(owner, now) {
      const { rows } = await db.query<{ id: string; decision: string | null }>(
        'mark waiting tool calls',
        'UPDATE approval_waits SET seen_at = $1 WHERE owner = $2 RETURNING id, decision',
        [now, owner],
      );
      return rows.flatMap((r) =>
        r.decision === null ? [] : [{ id: r.id, decision: JSON.parse(r.decision) as WaitDecision }],
      );
    },
    async claimOrphans(c) {
      // A transaction, so that two replicas deadlocking over the waits of one run are retried.
      const rows = await db.transaction('take over waiting tool calls', async (sql) => {
        const result = await sql<ApprovalWaitRow>(
          CLAIM.text,
          CLAIM.values({ ...c, platforms: [...c.platforms] }),
        );
        return result.rows;
      });
      return rows.map(approvalWaitOf);
    },
    async dropWait(id) {
      await db.query('forget a waiting tool call', 'DELETE FROM approval_waits WHERE id = $1', [id]);
    },
    async waitsIn(key) {
      const { rows } = await db.query<ApprovalWaitRow>(
        'read waiting tool calls',
        WAITING.text,
        WAITING.values({ key }),
      );
      return rows.map(approvalWaitOf);
    },
  };
}
