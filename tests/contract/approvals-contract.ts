import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalRecord } from '../../src/core/ports/approval-store.js';
import type { Store } from '../../src/core/ports/store.js';
import type { StoreFixture } from './store-contract.js';

const T = Date.UTC(2026, 0, 15, 12);

const decision = (over: Partial<ApprovalRecord> = {}): ApprovalRecord => ({
  id: 'a1',
  at: T,
  requestedAt: T - 5000,
  platform: 'slack',
  key: 'slack:T1:C1',
  tool: 'github__create_issue',
  argsDigest: 'f'.repeat(64),
  asker: 'slack:T1:U1',
  decidedBy: 'slack:T1:U2',
  outcome: 'approved',
  ...over,
});

/** The approvals behaviour every store implementation (SQLite, Postgres, ...) must show. */
export function approvalsContract(name: string, open: () => Promise<StoreFixture>): void {
  describe(`approvals contract: ${name}`, () => {
    let f: StoreFixture;
    let store: Store;
    beforeEach(async () => {
      f = await open();
      store = f.store;
    });
    afterEach(async () => {
      await f.cleanup();
    });

    it('keeps each decision once, whoever records it again, and lists them newest first', async () => {
      await store.recordApproval(decision());
      await store.recordApproval(decision({ outcome: 'denied', decidedBy: 'slack:T1:U9' }));
      await store.recordApproval(
        decision({ id: 'a2', at: T + 1000, outcome: 'denied', reason: 'wrong repo', asker: undefined }),
      );
      await store.recordApproval(
        decision({ id: 'a3', at: T + 2000, outcome: 'expired', decidedBy: undefined }),
      );
      const listed = await store.listApprovals({ since: T - 1, until: T + 10_000 });
      expect(listed.map((r) => [r.id, r.outcome])).toEqual([
        ['a3', 'expired'],
        ['a2', 'denied'],
        ['a1', 'approved'],
      ]);
      expect(listed[2]).toEqual(decision());
      expect(listed[1]).toEqual(
        decision({ id: 'a2', at: T + 1000, outcome: 'denied', reason: 'wrong repo', asker: undefined }),
      );
      expect(listed[0]?.decidedBy).toBeUndefined();
    });

    it('lists only the period asked for, at most the limit', async () => {
      await store.recordApproval(decision({ id: 'old', at: T - 10_000 }));
      for (let i = 0; i < 5; i++) await store.recordApproval(decision({ id: `n${i}`, at: T + i }));
      expect((await store.listApprovals({ since: T, until: T + 100 })).length).toBe(5);
      expect((await store.listApprovals({ since: T, until: T + 100, limit: 2 })).map((r) => r.id)).toEqual([
        'n4',
        'n3',
      ]);
    });

    it('grants a tool per channel once, and revokes one or all', async () => {
      await store.grantApproval({ settingsKey: 'k1', tool: 'b', grantedBy: 'slack:T1:U1', at: T });
      await store.grantApproval({ settingsKey: 'k1', tool: 'b', grantedBy: 'slack:T1:U2', at: T + 1 });
      await store.grantApproval({ settingsKey: 'k1', tool: 'a', grantedBy: 'slack:T1:U1', at: T + 2 });
      await store.grantApproval({ settingsKey: 'k2', tool: 'a', grantedBy: 'slack:T1:U1', at: T });
      expect(await store.approvalGrants('k1')).toEqual([
        { settingsKey: 'k1', tool: 'a', grantedBy: 'slack:T1:U1', at: T + 2 },
        { settingsKey: 'k1', tool: 'b', grantedBy: 'slack:T1:U1', at: T },
      ]);
      expect(await store.revokeApprovalGrants('k1', 'b')).toBe(1);
      expect(await store.revokeApprovalGrants('k1', 'b')).toBe(0);
      expect((await store.approvalGrants('k1')).map((g) => g.tool)).toEqual(['a']);
      expect(await store.revokeApprovalGrants('k1')).toBe(1);
      expect(await store.approvalGrants('k1')).toEqual([]);
      expect((await store.approvalGrants('k2')).map((g) => g.tool)).toEqual(['a']);
    });

    it('keeps decisions and grants across a reopen', async () => {
      await store.recordApproval(decision());
      await store.grantApproval({ settingsKey: 'k1', tool: 'a', grantedBy: 'slack:T1:U1', at: T });
      const again = await f.reopen();
      expect((await again.listApprovals({ since: 0, until: T + 1 })).map((r) => r.id)).toEqual(['a1']);
      expect((await again.approvalGrants('k1')).map((g) => g.tool)).toEqual(['a']);
    });
  });
}
