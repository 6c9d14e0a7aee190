import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StorageError } from '../../src/core/errors.js';
import type { Store } from '../../src/core/ports/store.js';
import type {
  Admission,
  BudgetRule,
  RateRule,
  UsageRecord,
  UsageResult,
  UsageScope,
  UsageStart,
} from '../../src/core/ports/usage-store.js';
import type { StoreFixture } from './store-contract.js';

const T = Date.UTC(2026, 0, 15, 12);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const start = (at: number, over: Partial<UsageStart> = {}): UsageStart => ({
  at,
  platform: 'discord',
  key: 'discord:g:c1',
  userId: 'u1',
  model: 'gpt-4o-mini',
  protocol: 'tools',
  ...over,
});

const result = (over: Partial<UsageResult> = {}): UsageResult => ({
  outcome: 'answered',
  modelCalls: 2,
  promptTokens: 100,
  completionTokens: 20,
  cachedTokens: 0,
  tools: { calculator: 1 },
  durationMs: 1500,
  ...over,
});

const record = (at: number, over: Partial<UsageRecord> = {}): UsageRecord => ({
  ...start(at),
  ...result(),
  ...over,
});

const rate = (limit: number, scope: UsageScope = { userId: 'u1' }, windowMs = HOUR): RateRule => ({
  name: 'RATE',
  scope,
  limit,
  windowMs,
});

const budget = (limit: number, scope: UsageScope = { userId: 'u1' }, since = T - HOUR, resetsAt = T + HOUR) =>
  ({ name: 'BUDGET', scope, limit, since, resetsAt }) satisfies BudgetRule;

const rules = (rates: RateRule[], budgets: BudgetRule[] = []) => ({ rates, budgets });

const limitedBy = (rule: string, retryAt: number) => ({
  admitted: false,
  rule,
  retryAt,
  recordId: expect.any(Number),
});

const admittedCount = (admissions: Admission[]) => admissions.filter((a) => a.admitted).length;

/** The usage-record behaviour every store implementation (SQLite, Postgres, ...) must show. */
export function usageContract(name: string, open: () => Promise<StoreFixture>): void {
  describe(`usage contract: ${name}`, () => {
    let f: StoreFixture;
    let store: Store;
    beforeEach(async () => {
      f = await open();
      store = f.store;
    });
    afterEach(async () => {
      await f.cleanup();
    });

    /** Admits `count` questions one minute apart from `from`, all for `over`. */
    const admitMany = async (count: number, from: number, over: Partial<UsageStart> = {}) => {
      const admissions: Admission[] = [];
      for (let i = 0; i < count; i++) {
        admissions.push(await store.admit(start(from + i * MINUTE, over), rules([])));
      }
      return admissions;
    };

    describe('rate limits', () => {
      it('takes questions under the limit and refuses the one at it, per user across channels', async () => {
        await admitMany(2, T, { key: 'discord:g:c1' });
        const third = await store.admit(start(T + 2 * MINUTE, { key: 'discord:g:c2' }), rules([rate(3)]));
        expect(third).toEqual({ admitted: true, id: expect.any(Number) });
        const fourth = await store.admit(start(T + 3 * MINUTE, { key: 'slack:T:c9' }), rules([rate(3)]));
        expect(fourth).toEqual(limitedBy('RATE', T + HOUR));
        const other = await store.admit(
          start(T + 3 * MINUTE, { userId: 'u2' }),
          rules([rate(3, { userId: 'u2' })]),
        );
        expect(other.admitted).toBe(true);
      });

      it('counts per conversation key, whoever asks', async () => {
        const scope = { key: 'discord:g:c1' };
        await admitMany(1, T, { userId: 'u1' });
        await admitMany(1, T + MINUTE, { userId: 'u2' });
        expect(await store.admit(start(T + 2 * MINUTE, { userId: 'u3' }), rules([rate(2, scope)]))).toEqual(
          limitedBy('RATE', T + HOUR),
        );
        const elsewhere = await store.admit(
          start(T + 2 * MINUTE, { userId: 'u3', key: 'discord:g:c2' }),
          rules([rate(2, { key: 'discord:g:c2' })]),
        );
        expect(elsewhere.admitted).toBe(true);
      });

      it('counts per origin, whoever asks from it, and keeps the origin on the record', async () => {
        const scope = { origin: 'addr:203.0.113.7' };
        await admitMany(1, T, { userId: 'web:b1', origin: 'addr:203.0.113.7' });
        await admitMany(1, T + MINUTE, { userId: 'web:b2', origin: 'addr:203.0.113.7' });
        expect(
          await store.admit(
            start(T + 2 * MINUTE, { userId: 'web:b3', origin: 'addr:203.0.113.7' }),
            rules([rate(2, { userId: 'web:b3' }), rate(2, scope)]),
          ),
        ).toEqual(limitedBy('RATE', T + HOUR));
        const elsewhere = await store.admit(
          start(T + 2 * MINUTE, { userId: 'web:b4', origin: 'addr:198.51.100.1' }),
          rules([rate(2, { origin: 'addr:198.51.100.1' })]),
        );
        expect(elsewhere.admitted).toBe(true);
        const stored = await store.records({ since: 0, until: T + HOUR });
        expect(stored.map((r) => r.origin)).toEqual([
          'addr:203.0.113.7',
          'addr:203.0.113.7',
          'addr:203.0.113.7',
          'addr:198.51.100.1',
        ]);
      });

      it("counts everything for the scope 'all'", async () => {
        await admitMany(1, T, { userId: 'u1', key: 'a' });
        await admitMany(1, T + MINUTE, { userId: 'u2', key: 'b', platform: 'slack' });
        expect(
          (await store.admit(start(T + 2 * MINUTE, { userId: 'u3', key: 'c' }), rules([rate(3, 'all')])))
            .admitted,
        ).toBe(true);
        expect(
          await store.admit(start(T + 3 * MINUTE, { userId: 'u4', key: 'd' }), rules([rate(3, 'all')])),
        ).toEqual(limitedBy('RATE', T + HOUR));
      });

      it('counts answered, failed, cancelled and pending questions, but not refused, limited or summaries', async () => {
        const [a, b, c] = await admitMany(4, T);
        await store.complete((a as { id: number }).id, result({ outcome: 'answered' }));
        await store.complete((b as { id: number }).id, result({ outcome: 'failed' }));
        await store.complete((c as { id: number }).id, result({ outcome: 'cancelled' }));
        expect((await store.admit(start(T + 5 * MINUTE), rules([rate(4)]))).admitted).toBe(false);
        expect((await store.admit(start(T + 5 * MINUTE), rules([rate(6)]))).admitted).toBe(true);

        const elsewhere = { key: 'slack:T:other' };
        await store.record(record(T, { ...elsewhere, outcome: 'refused' }));
        await store.record(record(T, { ...elsewhere, userId: null, outcome: 'summary' }));
        for (let i = 0; i < 3; i++)
          await store.admit(start(T + MINUTE, elsewhere), rules([rate(0, elsewhere)]));
        expect(
          (await store.admit(start(T + 2 * MINUTE, elsewhere), rules([rate(1, elsewhere)]))).admitted,
        ).toBe(true);
      });

      it('counts only the window: a question exactly windowMs old has left it', async () => {
        await admitMany(1, T - HOUR);
        await admitMany(1, T - HOUR + 1);
        expect((await store.admit(start(T), rules([rate(2)]))).admitted).toBe(true);
        expect(await store.admit(start(T), rules([rate(2)]))).toEqual(limitedBy('RATE', T + 1));
      });

      it('frees up when the oldest counted question leaves the window', async () => {
        await admitMany(3, T);
        const limited = await store.admit(start(T + 30 * MINUTE), rules([rate(3)]));
        expect(limited).toEqual(limitedBy('RATE', T + HOUR));
        expect((await store.admit(start(T + HOUR - 1), rules([rate(3)]))).admitted).toBe(false);
        expect((await store.admit(start(T + HOUR), rules([rate(3)]))).admitted).toBe(true);
      });

      it('with more questions counted than the limit (it was lowered), frees up once enough have left', async () => {
        await admitMany(4, T);
        // Four taken, limit two: one more fits once three have left, i.e. when the third oldest leaves.
        expect(await store.admit(start(T + 10 * MINUTE), rules([rate(2)]))).toEqual(
          limitedBy('RATE', T + 2 * MINUTE + HOUR),
        );
      });

      it('never asks to wait when the clock went back, and never names a time before the ask', async () => {
        await admitMany(1, T);
        await admitMany(1, T + 10 * MINUTE);
        // The clock went back five minutes after the second question.
        const at = T + 5 * MINUTE;
        const limited = await store.admit(start(at), rules([rate(1)]));
        expect(limited).toEqual(limitedBy('RATE', T + HOUR));
        // A budget whose day ended before the ask (the clock went back across it) frees up now, not before.
        await store.record(record(T, { promptTokens: 1000 }));
        const stale = await store.admit(
          start(at),
          rules([], [budget(10, { userId: 'u1' }, T - HOUR, T + 1)]),
        );
        expect(stale).toEqual(limitedBy('BUDGET', at));
        for (const a of [limited, stale]) if (!a.admitted) expect(a.retryAt).toBeGreaterThanOrEqual(at);
      });

      it('records a limited ask with nothing spent, under the id it returns', async () => {
        await admitMany(1, T);
        const limited = await store.admit(start(T + MINUTE, { protocol: 'react' }), rules([rate(1)]));
        if (limited.admitted) throw new Error('expected a limited ask');
        const stored = await store.records({ since: T + MINUTE, until: T + 2 * MINUTE });
        expect(stored).toEqual([
          {
            ...start(T + MINUTE, { protocol: 'react' }),
            id: limited.recordId,
            outcome: 'limited',
            modelCalls: 0,
            promptTokens: 0,
            completionTokens: 0,
            cachedTokens: 0,
            tools: {},
            durationMs: 0,
          },
        ]);
      });
    });

    describe('token budgets', () => {
      it('refuses once the scope spent the limit, until the budget resets', async () => {
        const [a] = await admitMany(1, T);
        await store.complete((a as { id: number }).id, result({ promptTokens: 80, completionTokens: 20 }));
        expect((await store.admit(start(T + MINUTE), rules([], [budget(101)]))).admitted).toBe(true);
        expect(await store.admit(start(T + MINUTE), rules([], [budget(100)]))).toEqual(
          limitedBy('BUDGET', T + HOUR),
        );
        expect(
          (await store.admit(start(T + MINUTE, { userId: 'u2' }), rules([], [budget(100, { userId: 'u2' })])))
            .admitted,
        ).toBe(true);
      });

      it('counts memory summaries for their key and for all, not for any user', async () => {
        await store.record(
          record(T, { userId: null, outcome: 'summary', promptTokens: 400, completionTokens: 100 }),
        );
        const ask = start(T + MINUTE);
        expect((await store.admit(ask, rules([], [budget(500, { userId: 'u1' })]))).admitted).toBe(true);
        expect(await store.admit(ask, rules([], [budget(500, { key: 'discord:g:c1' })]))).toEqual(
          limitedBy('BUDGET', T + HOUR),
        );
        expect(await store.admit(ask, rules([], [budget(500, 'all')]))).toEqual(
          limitedBy('BUDGET', T + HOUR),
        );
        expect((await store.admit(ask, rules([], [budget(500, { key: 'discord:g:c2' })]))).admitted).toBe(
          true,
        );
      });

      it('counts the budget day [since, resetsAt) only', async () => {
        const since = T - HOUR;
        const resetsAt = T + HOUR;
        await store.record(record(since - 1, { promptTokens: 1000, completionTokens: 0 }));
        await store.record(record(resetsAt, { promptTokens: 1000, completionTokens: 0 }));
        expect(
          (await store.admit(start(T), rules([], [budget(10, { userId: 'u1' }, since, resetsAt)]))).admitted,
        ).toBe(true);
        await store.record(record(since, { promptTokens: 10, completionTokens: 0 }));
        expect(
          await store.admit(start(T), rules([], [budget(10, { userId: 'u1' }, since, resetsAt)])),
        ).toEqual(limitedBy('BUDGET', resetsAt));
      });

      it('names the rule that frees up last when several are exceeded', async () => {
        await store.record(record(T, { promptTokens: 1000 }));
        const ask = start(T + MINUTE);
        const shortRate = rate(1, { userId: 'u1' }, 10 * MINUTE);
        const longRate = { ...rate(1, { userId: 'u1' }, 3 * HOUR), name: 'LONG_RATE' };
        expect(await store.admit(ask, rules([shortRate], [budget(10)]))).toEqual(
          limitedBy('BUDGET', T + HOUR),
        );
        expect(await store.admit(ask, rules([shortRate, longRate], [budget(10)]))).toEqual(
          limitedBy('LONG_RATE', T + 3 * HOUR),
        );
      });
    });

    describe('concurrency', () => {
      it('admits exactly the limit of 20 parallel asks', async () => {
        const admissions = await Promise.all(
          Array.from({ length: 20 }, (_, i) => store.admit(start(T + i), rules([rate(5)]))),
        );
        expect(admittedCount(admissions)).toBe(5);
        const stored = await store.records({ since: 0, until: T + HOUR });
        expect(stored.filter((r) => r.outcome === 'pending')).toHaveLength(5);
        expect(stored.filter((r) => r.outcome === 'limited')).toHaveLength(15);
      });

      it('admits exactly the limit in total across two connections racing', async () => {
        const other = await f.reopen();
        const admissions = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            (i % 2 ? other : store).admit(start(T + i, { userId: `u${i}` }), rules([rate(5, 'all')])),
          ),
        );
        expect(admittedCount(admissions)).toBe(5);
        expect(new Set(admissions.map((a) => (a.admitted ? a.id : a.recordId))).size).toBe(20);
      });
    });

    describe('complete and record', () => {
      it('completes a pending record once with what the run spent', async () => {
        const [a] = await admitMany(1, T);
        const id = (a as { id: number }).id;
        const spent = result({ cachedTokens: 64, tools: { web_search: 2, calculator: 1 } });
        await store.complete(id, spent);
        expect(await store.records({ since: T, until: T + 1 })).toEqual([{ ...start(T), id, ...spent }]);
        await expect(store.complete(id, result({ outcome: 'failed' }))).rejects.toBeInstanceOf(StorageError);
        expect((await store.records({ since: T, until: T + 1 }))[0]?.outcome).toBe('answered');
      });

      it('names the model that answered when a fallback did, keeping the started one otherwise', async () => {
        const [a, b] = await admitMany(2, T);
        await store.complete((a as { id: number }).id, { ...result(), answeredBy: 'qwen2.5' });
        await store.complete((b as { id: number }).id, result());
        const models = (await store.records({ since: T, until: T + 2 * MINUTE })).map((r) => r.model);
        expect(models).toEqual(['qwen2.5', 'gpt-4o-mini']);
      });

      it('refuses to complete an unknown id or a limited record', async () => {
        await expect(store.complete(987_654, result())).rejects.toBeInstanceOf(StorageError);
        await admitMany(1, T);
        const limited = await store.admit(start(T + 1), rules([rate(1)]));
        if (limited.admitted) throw new Error('expected a limited ask');
        await expect(store.complete(limited.recordId, result())).rejects.toBeInstanceOf(StorageError);
      });

      it('stores a full record and returns records oldest first, filtered', async () => {
        await store.record(record(T + 2, { outcome: 'refused', modelCalls: 0, tools: {} }));
        await store.record(record(T, { userId: null, outcome: 'summary', key: 'k2' }));
        await store.record(record(T + 1, { userId: 'u2', tools: { wikipedia: 3 } }));
        const all = await store.records({ since: T, until: T + 3 });
        expect(all.map((r) => r.at)).toEqual([T, T + 1, T + 2]);
        expect(all[1]).toEqual({
          ...record(T + 1, { userId: 'u2', tools: { wikipedia: 3 } }),
          id: expect.any(Number),
        });
        expect((await store.records({ since: T, until: T + 3, userId: 'u2' })).map((r) => r.at)).toEqual([
          T + 1,
        ]);
        expect((await store.records({ since: T, until: T + 3, key: 'k2' })).map((r) => r.userId)).toEqual([
          null,
        ]);
        expect((await store.records({ since: T + 1, until: T + 2 })).map((r) => r.at)).toEqual([T + 1]);
      });
    });

    describe('totals', () => {
      const fillMixed = async () => {
        await store.record(
          record(T, {
            userId: 'u1',
            key: 'k1',
            promptTokens: 100,
            completionTokens: 10,
            cachedTokens: 80,
            modelCalls: 2,
          }),
        );
        await store.record(
          record(T + 1, {
            userId: 'u1',
            key: 'k2',
            outcome: 'failed',
            promptTokens: 50,
            completionTokens: 0,
            modelCalls: 1,
          }),
        );
        await store.record(
          record(T + 2, {
            userId: 'u2',
            key: 'k1',
            promptTokens: 300,
            completionTokens: 30,
            cachedTokens: 200,
            modelCalls: 3,
          }),
        );
        await store.record(record(T + 3, { userId: 'u2', key: 'k1', outcome: 'refused', ...nothingSpent }));
        await store.record(
          record(T + 4, {
            userId: null,
            key: 'k1',
            outcome: 'summary',
            promptTokens: 40,
            completionTokens: 5,
            modelCalls: 1,
          }),
        );
        await admitMany(1, T + 5, { userId: 'u3', key: 'k3' });
        await store.admit(start(T + 6, { userId: 'u3', key: 'k3' }), rules([rate(1, { userId: 'u3' })]));
      };
      const nothingSpent = {
        modelCalls: 0,
        promptTokens: 0,
        completionTokens: 0,
        cachedTokens: 0,
        tools: {},
      };
      const zero = {
        questions: 0,
        refused: 0,
        limited: 0,
        modelCalls: 0,
        promptTokens: 0,
        completionTokens: 0,
        cachedTokens: 0,
      };
      const period = { since: T, until: T + MINUTE };

      it('groups by user, leaving out records without one', async () => {
        await fillMixed();
        expect(await store.totals({ ...period, by: 'user' })).toEqual([
          {
            ...zero,
            group: 'u1',
            questions: 2,
            modelCalls: 3,
            promptTokens: 150,
            completionTokens: 10,
            cachedTokens: 80,
          },
          {
            ...zero,
            group: 'u2',
            questions: 1,
            refused: 1,
            modelCalls: 3,
            promptTokens: 300,
            completionTokens: 30,
            cachedTokens: 200,
          },
          { ...zero, group: 'u3', questions: 1, limited: 1 },
        ]);
      });

      it('groups by key, with the summaries', async () => {
        await fillMixed();
        expect(await store.totals({ ...period, by: 'key' })).toEqual([
          {
            ...zero,
            group: 'k1',
            questions: 2,
            refused: 1,
            modelCalls: 6,
            promptTokens: 440,
            completionTokens: 45,
            cachedTokens: 280,
          },
          { ...zero, group: 'k2', questions: 1, modelCalls: 1, promptTokens: 50 },
          { ...zero, group: 'k3', questions: 1, limited: 1 },
        ]);
      });

      it("sums everything into one 'all' group, filtered by user or key, zeros when nothing matched", async () => {
        await fillMixed();
        expect(await store.totals({ ...period, by: 'none' })).toEqual([
          {
            group: 'all',
            questions: 4,
            refused: 1,
            limited: 1,
            modelCalls: 7,
            promptTokens: 490,
            completionTokens: 45,
            cachedTokens: 280,
          },
        ]);
        expect(await store.totals({ ...period, by: 'none', userId: 'u1', key: 'k1' })).toEqual([
          {
            ...zero,
            group: 'all',
            questions: 1,
            modelCalls: 2,
            promptTokens: 100,
            completionTokens: 10,
            cachedTokens: 80,
          },
        ]);
        expect(await store.totals({ since: T + 1, until: T + 2, by: 'none' })).toEqual([
          { ...zero, group: 'all', questions: 1, modelCalls: 1, promptTokens: 50 },
        ]);
        expect(await store.totals({ since: 0, until: T, by: 'none' })).toEqual([{ ...zero, group: 'all' }]);
        expect(await store.totals({ since: 0, until: T, by: 'user' })).toEqual([]);
      });

      it('returns the largest groups first with top, by tokens then questions', async () => {
        await fillMixed();
        await store.record(record(T + 7, { userId: 'u4', promptTokens: 0, completionTokens: 0 }));
        await store.record(record(T + 8, { userId: 'u4', promptTokens: 0, completionTokens: 0 }));
        const top = await store.totals({ ...period, by: 'user', top: 3 });
        expect(top.map((t) => t.group)).toEqual(['u2', 'u1', 'u4']);
        expect((await store.totals({ ...period, by: 'user', top: 1 })).map((t) => t.group)).toEqual(['u2']);
      });

      const at = (iso: string) => Date.parse(iso);
      const days = async (timeZone?: string) =>
        (await store.totals({ since: 0, until: at('2027-01-01T00:00:00Z'), by: 'day', timeZone })).map(
          (t) => [t.group, t.questions],
        );

      it('groups by calendar day in UTC by default, and in the given time zone', async () => {
        // 23:30 and 00:30 in Berlin (CET, UTC+1) are both on 15 January in UTC.
        await store.record(record(at('2026-01-15T22:30:00Z')));
        await store.record(record(at('2026-01-15T23:30:00Z')));
        expect(await days()).toEqual([['2026-01-15', 2]]);
        expect(await days('Europe/Berlin')).toEqual([
          ['2026-01-15', 1],
          ['2026-01-16', 1],
        ]);
      });

      it('keeps local days right across a DST change and in zones off the whole hour', async () => {
        // Berlin switches to CEST (UTC+2) at 2026-03-29 01:00Z; each pair is 23:30 and 00:30 local.
        for (const iso of [
          '2026-03-28T22:30:00Z',
          '2026-03-28T23:30:00Z',
          '2026-03-29T21:30:00Z',
          '2026-03-29T22:30:00Z',
        ]) {
          await store.record(record(at(iso)));
        }
        expect(await days('Europe/Berlin')).toEqual([
          ['2026-03-28', 1],
          ['2026-03-29', 2],
          ['2026-03-30', 1],
        ]);
        // Midnight in Kolkata (UTC+5:30) is 18:30Z: 18:29Z and 18:31Z are on different days there.
        await store.record(record(at('2026-06-01T18:29:00Z')));
        await store.record(record(at('2026-06-01T18:31:00Z')));
        const kolkata = await days('Asia/Kolkata');
        expect(kolkata.slice(-2)).toEqual([
          ['2026-06-01', 1],
          ['2026-06-02', 1],
        ]);
      });
    });

    describe('lifecycle', () => {
      it('keeps records and limits across close and reopen', async () => {
        const [a] = await admitMany(2, T);
        await store.complete((a as { id: number }).id, result());
        const before = await store.records({ since: 0, until: T + HOUR });
        await store.close();
        const again = await f.reopen();
        expect(await again.records({ since: 0, until: T + HOUR })).toEqual(before);
        expect(await again.admit(start(T + 2 * MINUTE), rules([rate(2)]))).toEqual(
          limitedBy('RATE', T + HOUR),
        );
      });

      it('rejects every usage call after close with a StorageError', async () => {
        await store.close();
        const outcomes = await Promise.allSettled([
          store.admit(start(T), rules([rate(1)])),
          store.complete(1, result()),
          store.record(record(T)),
          store.totals({ since: 0, until: T, by: 'day' }),
          store.records({ since: 0, until: T }),
        ]);
        for (const outcome of outcomes) {
          expect(outcome.status).toBe('rejected');
          if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(StorageError);
        }
      });
    });
  });
}
