import type Database from 'better-sqlite3';
import type { ApprovalWaitStore } from '../../core/ports/approval-wait-store.js';
import * as rows from '../approval-wait-rows.js';
import type { FailWith } from './sqlite-usage.js';

const COLUMNS =
  'id, run_id, platform, key, tool, asker, requested_at, expires_at, owner, seen_at, state, decision, decided_at';
// One process owns a SQLite file, so a claim needs no locking beyond its transaction.
const ORPHAN_RUNS = `SELECT DISTINCT run_id FROM approval_waits
  WHERE ${rows.ORPHANED}
    AND platform IN (SELECT value FROM json_each(@platforms)) LIMIT @limit`;

/** The approval-waits half of the SQLite store. */
export function sqliteApprovalWaits(db: Database.Database, fail: FailWith): ApprovalWaitStore {
  const insert = db.prepare(
    `INSERT INTO approval_waits (${COLUMNS}) VALUES (${COLUMNS.replace(/\w+/g, '?')})`,
  );
  const get = db.prepare<[string], rows.ApprovalWaitRow>('SELECT * FROM approval_waits WHERE id = ?');
  const decide = db.prepare<[string, number, string], rows.ApprovalWaitRow>(
    'UPDATE approval_waits SET decision = ?, decided_at = ? WHERE id = ? AND decided_at IS NULL RETURNING *',
  );
  const touch = db.prepare<[number, string], { id: string; decision: string | null }>(
    'UPDATE approval_waits SET seen_at = ? WHERE owner = ? RETURNING id, decision',
  );
  const orphanRuns = db.prepare<Record<string, unknown>, { run_id: string }>(ORPHAN_RUNS);
  const takeRun = db.prepare<[string], rows.ApprovalWaitRow>(
    'DELETE FROM approval_waits WHERE run_id = ? RETURNING *',
  );
  const drop = db.prepare('DELETE FROM approval_waits WHERE id = ?');
  const waiting = db.prepare<{ key: string }, rows.ApprovalWaitRow>(rows.WAITING_IN);
  const claim = db.transaction((params: Record<string, unknown>) =>
    orphanRuns.all(params).flatMap((r) => takeRun.all(r.run_id)),
  );
  return {
    async saveWait(wait) {
      try {
        insert.run(...rows.approvalWaitValues(wait));
      } catch (err) {
        throw fail('keep a waiting tool call', err);
      }
    },
    async getWait(id) {
      try {
        const row = get.get(id);
        return row && rows.approvalWaitOf(row);
      } catch (err) {
        throw fail('read a waiting tool call', err);
      }
    },
    async decideWait(id, decision) {
      try {
        const row = decide.get(JSON.stringify(decision), decision.at, id);
        return row && rows.approvalWaitOf(row);
      } catch (err) {
        throw fail('decide a waiting tool call', err);
      }
    },
    async touchWaits(owner, now) {
      try {
        return touch
          .all(now, owner)
          .flatMap((r) => (r.decision === null ? [] : [{ id: r.id, decision: JSON.parse(r.decision) }]));
      } catch (err) {
        throw fail('mark waiting tool calls', err);
      }
    },
    async claimOrphans(c) {
      try {
        const params = {
          staleBefore: c.staleBefore,
          now: c.now,
          platforms: JSON.stringify(c.platforms),
          limit: c.limit,
        };
        return claim(params).map(rows.approvalWaitOf);
      } catch (err) {
        throw fail('take over waiting tool calls', err);
      }
    },
    async dropWait(id) {
      try {
        drop.run(id);
      } catch (err) {
        throw fail('forget a waiting tool call', err);
      }
    },
    async waitsIn(key) {
      try {
        return waiting.all({ key }).map(rows.approvalWaitOf);
      } catch (err) {
        throw fail('read waiting tool calls', err);
      }
    },
  };
}
