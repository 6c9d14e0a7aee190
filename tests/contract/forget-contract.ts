import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/core/ports/store.js';
import { DAY, FORGET, HERE, STAYS, seedPerson, T, THERE } from './forget-seed.js';
import type { StoreFixture, TableRow } from './store-contract.js';

/** Whether any value of the row (JSON text included) holds `text`. */
const names = (r: TableRow, text: string) => JSON.stringify(r.row).includes(text);

/** How many rows of each table hold `text`. */
const perTable = (rows: TableRow[], text: string, also: (r: TableRow) => boolean = () => true) => {
  const counts: Record<string, number> = {};
  for (const r of rows) if (names(r, text) && also(r)) counts[r.table] = (counts[r.table] ?? 0) + 1;
  return counts;
};

/** The rows naming only the one who stays that forget-me changed or dropped (none should be). */
const untouched = (before: TableRow[], after: TableRow[]) => {
  const kept = new Set(after.map((r) => JSON.stringify(r)));
  return before.filter((r) => names(r, STAYS) && !names(r, FORGET) && !kept.has(JSON.stringify(r)));
};

// The one deliberate exception: a channel's settings an admin wrote naming the person (an allow or block
// list) stay, since forgetting oneself must not lift a block. Nothing forget-me removes is kept there.
const KEPT_TABLES = new Set(['channel_settings']);

const PERIOD = { since: T - 6 * DAY, until: T + DAY, offsetMs: 0 };

/** Forget-me against the whole schema: after it, no row of any table names the person. */
export function forgetContract(name: string, open: () => Promise<StoreFixture>): void {
  describe(`forget-me contract: ${name}`, () => {
    let f: StoreFixture;
    let store: Store;
    let everyRow: () => Promise<TableRow[]>;
    beforeEach(async () => {
      f = await open();
      store = f.store;
      if (!f.everyRow) throw new Error('the fixture must list every row (everyRow)');
      everyRow = f.everyRow;
      for (const [key, n] of [
        [HERE, 1],
        [THERE, 2],
      ] as const) {
        await seedPerson(store, { person: FORGET, other: STAYS, key, tag: `f${n}` });
        await seedPerson(store, { person: STAYS, other: FORGET, key, tag: `s${n}` });
      }
      await store.setSettings(HERE, { BLOCK_USERS: FORGET });
    });
    afterEach(async () => {
      await f.cleanup();
    });

    it('--everywhere leaves no row naming the person; everyone else’s rows and the totals stay', async () => {
      const before = await everyRow();
      // The seed reaches every kind of row that can name a person, so none is checked vacuously.
      expect(Object.keys(perTable(before, FORGET)).sort()).toEqual([
        'approval_grants',
        'approval_waits',
        'approvals',
        'archive',
        'channel_settings',
        'feedback',
        'followed_threads',
        'knowledge_files',
        'notes',
        'run_logs',
        'schedules',
        'turns',
        'usage',
        'usage_day_people',
        'web_chats',
        'web_sessions',
      ]);
      const stats = await store.adminStats(PERIOD, 10);
      expect(stats.topPeople.map((p) => p.name)).toContain(FORGET);

      const report = await store.forgetPerson({ principal: FORGET, usageKeptSince: T - 2 * DAY });

      const after = await everyRow();
      const left = after.filter((r) => names(r, FORGET) && !KEPT_TABLES.has(r.table));
      expect(left).toEqual([]);
      expect(perTable(after, FORGET)).toEqual({ channel_settings: 1 });
      // Their web chats go whole (the summary and the runs shown are keyed by the chat, not by them).
      expect(perTable(after, '"web:f')).toEqual({});
      expect(perTable(after, '"web:s')).toEqual(perTable(before, '"web:s'));
      expect(Object.keys(perTable(before, '"web:f')).sort()).toEqual([
        'archive',
        'conversations',
        'turns',
        'web_chat_runs',
        'web_chats',
      ]);
      expect(untouched(before, after)).toEqual([]);
      expect(report).toEqual({
        turns: 6, // in each channel one, and two in their web chat (one folded into its summary)
        notes: 4,
        webChats: 2,
        schedules: 2,
        votes: 2,
        runLogs: 2,
        usage: 4,
        // In each channel: four decisions between the two, a grant, a press on the other's waiting call.
        approvals: 2 * 6,
        waitingCalls: 2 * 2,
        sessions: 2,
      });

      const now = await store.adminStats(PERIOD, 10);
      expect(now.topPeople.map((p) => p.name)).not.toContain(FORGET);
      const sum = (s: typeof stats) => s.topPeople.reduce((n, p) => n + p.questions, 0);
      expect(sum(now)).toBe(sum(stats));
      expect(now.daily).toEqual(stats.daily);
      expect(now.topChannels).toEqual(stats.topChannels);
      const approvals = await store.listApprovals({ since: T - DAY, until: T + DAY });
      // Each decision is still counted, without the person and the reasons given around them.
      expect(approvals.map((a) => [a.outcome, a.reason])).toEqual(Array(8).fill(['denied', undefined]));
    });

    it('still counts the person’s recent questions against their limits', async () => {
      await store.forgetPerson({ principal: FORGET, usageKeptSince: T - 2 * DAY });
      const rule = { name: 'RATE_LIMIT_USER', scope: { userId: FORGET }, limit: 2, windowMs: DAY };
      const ask = {
        at: T + 1,
        platform: 'slack',
        key: HERE,
        userId: FORGET,
        model: 'gpt-a',
        protocol: 'tools',
      };
      expect(await store.admit(ask, { rates: [rule], budgets: [] })).toMatchObject({ admitted: false });
      const fresh = { ...rule, scope: { userId: STAYS }, limit: 3 };
      expect(await store.admit({ ...ask, userId: STAYS }, { rates: [fresh], budgets: [] })).toMatchObject({
        admitted: true,
      });
    });

    it('in one channel removes only that channel’s rows naming the person', async () => {
      const here = (r: TableRow) => names(r, HERE);
      const before = await everyRow();
      const report = await store.forgetPerson({ principal: FORGET, key: HERE, usageKeptSince: T - 2 * DAY });
      const after = await everyRow();
      const leftHere = perTable(after, FORGET, here);
      expect(leftHere).toEqual({ channel_settings: 1 });
      expect(perTable(after, FORGET, (r) => !here(r))).toEqual(perTable(before, FORGET, (r) => !here(r)));
      expect(untouched(before, after)).toEqual([]);
      expect(report).toMatchObject({
        turns: 1,
        notes: 2,
        schedules: 1,
        webChats: 0,
        approvals: 6,
        waitingCalls: 2,
        // Signing in belongs to no channel: only --everywhere signs the person out.
        sessions: 0,
      });
    });
  });
}
