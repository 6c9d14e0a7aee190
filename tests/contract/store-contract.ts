import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StorageError } from '../../src/core/errors.js';
import type { Compaction, ConversationStore, NewTurn } from '../../src/core/ports/conversation-store.js';
import type { Store } from '../../src/core/ports/store.js';

/** A store under test, opened on fresh, empty data. */
export interface StoreFixture {
  store: Store;
  /** Opens the same data through a new connection, as another process or a restart would. */
  reopen(): Promise<Store>;
  /** Closes every store the fixture opened and removes the data. */
  cleanup(): Promise<void>;
  /** Every row of every table, the tables listed by the database itself (so a new one is covered unasked). */
  everyRow?: () => Promise<TableRow[]>;
}

/** One row of a table, as the database returns it. */
export interface TableRow {
  table: string;
  row: Record<string, unknown>;
}

const turn = (n: number, author = 'alice'): NewTurn => ({
  author,
  question: `question ${n}`,
  answer: `answer ${n}`,
  tokens: 10 + n,
});

const questions = async (store: ConversationStore, key: string) =>
  (await store.load(key)).turns.map((t) => t.question);

/** Appends turns 1..count to `key`, one after another, and returns their ids. */
async function fill(store: ConversationStore, key: string, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let n = 1; n <= count; n++) ids.push((await store.appendTurn(key, turn(n))).id);
  return ids;
}

const summary = (text: string) => ({ text, tokens: text.length });

/** The conversation behaviour every store implementation (SQLite, Postgres, ...) must show. */
export function storeContract(name: string, open: () => Promise<StoreFixture>): void {
  describe(`store contract: ${name}`, () => {
    let f: StoreFixture;
    let store: ConversationStore;
    beforeEach(async () => {
      f = await open();
      store = f.store;
    });
    afterEach(async () => {
      await f.cleanup();
    });

    describe('append and load', () => {
      it('returns an empty snapshot (version 0) for a key never seen, windowed or not', async () => {
        const empty = { summary: null, summarizedTurns: 0, turns: [], version: 0 };
        expect(await store.load('console:nobody')).toEqual(empty);
        expect(await store.load('console:nobody', { maxTokens: 100, keep: 2 })).toEqual(empty);
      });

      it('stores each turn whole, in order, with growing ids and the time it was stored', async () => {
        const before = Date.now();
        const a = await store.appendTurn('k', turn(1));
        const b = await store.appendTurn('k', turn(2, 'bob'));
        const after = Date.now();
        expect(a).toMatchObject(turn(1));
        expect(b.id).toBeGreaterThan(a.id);
        for (const stored of [a, b]) {
          expect(stored.createdAt).toBeGreaterThanOrEqual(before);
          expect(stored.createdAt).toBeLessThanOrEqual(after);
        }
        expect((await store.load('k')).turns).toEqual([a, b]);
      });

      it('keeps keys apart', async () => {
        await store.appendTurn('discord:g:1', turn(1));
        await store.appendTurn('discord:g:2', turn(2));
        expect(await questions(store, 'discord:g:1')).toEqual(['question 1']);
        expect(await questions(store, 'discord:g:2')).toEqual(['question 2']);
      });

      it('never reuses an id, across keys, compactions and resets', async () => {
        const seen = await fill(store, 'k', 3);
        seen.push((await store.appendTurn('other', turn(9))).id);
        const snap = await store.load('k');
        await store.compact('k', {
          throughId: seen[2]!,
          foldedTurns: 3,
          expectedVersion: snap.version,
          summary: summary('s'),
        });
        await store.reset('k');
        const next = await store.appendTurn('k', turn(4));
        expect(next.id).toBeGreaterThan(Math.max(...seen));
      });
    });

    describe('a windowed load (what the agent is shown)', () => {
      const shown = async (tokens: number[], maxTokens: number, keep: number) => {
        for (const [i, t] of tokens.entries()) await store.appendTurn('w', { ...turn(i + 1), tokens: t });
        return (await store.load('w', { maxTokens, keep })).turns.map((t) => t.question);
      };

      it('returns every turn when they fit', async () => {
        expect(await shown([50, 50, 50], 200, 2)).toEqual(['question 1', 'question 2', 'question 3']);
      });

      it('returns only the newest turns within the token budget when history piled up', async () => {
        expect(await shown(Array(30).fill(30), 200, 2)).toEqual([
          'question 25',
          'question 26',
          'question 27',
          'question 28',
          'question 29',
          'question 30',
        ]);
      });

      it('always returns the newest `keep` turns, however large', async () => {
        expect(await shown([500, 500, 500], 200, 2)).toEqual(['question 2', 'question 3']);
      });

      it('stops at the first older turn that does not fit, even if an older one would', async () => {
        // Newest first the running totals are 10, 20, 120, 125: turn 1 alone would fit, but is past the cut.
        expect(await shown([5, 100, 10, 10], 50, 1)).toEqual(['question 3', 'question 4']);
      });

      it('carries the summary, its turn count and the version along with the window', async () => {
        const ids = await fill(store, 'w', 5);
        const snap = await store.load('w');
        await store.compact('w', {
          throughId: ids[1]!,
          foldedTurns: 2,
          expectedVersion: snap.version,
          summary: summary('turns 1 and 2'),
        });
        const full = await store.load('w');
        const windowed = await store.load('w', { maxTokens: 0, keep: 1 });
        expect(windowed).toEqual({ ...full, turns: full.turns.slice(-1) });
        expect(windowed.summary).toEqual(summary('turns 1 and 2'));
      });
    });

    describe('compaction', () => {
      it('replaces the turns up to an id by the summary, keeping later ones', async () => {
        const ids = await fill(store, 'k', 4);
        const before = await store.load('k');
        const ok = await store.compact('k', {
          throughId: ids[1]!,
          foldedTurns: 2,
          expectedVersion: before.version,
          summary: summary('alice asked 1 and 2'),
        });
        expect(ok).toBe(true);
        const after = await store.load('k');
        expect(after.summary).toEqual(summary('alice asked 1 and 2'));
        expect(after.summarizedTurns).toBe(2);
        expect(after.turns.map((t) => t.question)).toEqual(['question 3', 'question 4']);
        expect(after.version).not.toBe(before.version);
      });

      it('adds up the folded turns over successive compactions', async () => {
        const ids = await fill(store, 'k', 4);
        let snap = await store.load('k');
        await store.compact('k', {
          throughId: ids[0]!,
          foldedTurns: 1,
          expectedVersion: snap.version,
          summary: summary('one'),
        });
        snap = await store.load('k');
        const ok = await store.compact('k', {
          throughId: ids[2]!,
          foldedTurns: 2,
          expectedVersion: snap.version,
          summary: summary('one to three'),
        });
        expect(ok).toBe(true);
        const after = await store.load('k');
        expect(after.summarizedTurns).toBe(3);
        expect(after.summary?.text).toBe('one to three');
        expect(after.turns.map((t) => t.question)).toEqual(['question 4']);
      });

      it('keeps turns appended after the snapshot it was made from', async () => {
        const first = await store.appendTurn('k', turn(1));
        const snap = await store.load('k');
        await store.appendTurn('k', turn(2));
        const ok = await store.compact('k', {
          throughId: first.id,
          foldedTurns: 1,
          expectedVersion: snap.version,
          summary: summary('s'),
        });
        expect(ok).toBe(true);
        expect(await questions(store, 'k')).toEqual(['question 2']);
      });

      it('refuses a compaction whose version is stale, changing nothing', async () => {
        const ids = await fill(store, 'k', 3);
        const stale = await store.load('k');
        await store.compact('k', {
          throughId: ids[0]!,
          foldedTurns: 1,
          expectedVersion: stale.version,
          summary: summary('turn 1'),
        });
        const current = await store.load('k');
        // The turn count matches what is stored now, but the summary was made without turn 1.
        const ok = await store.compact('k', {
          throughId: ids[2]!,
          foldedTurns: 2,
          expectedVersion: stale.version,
          summary: summary('made without turn 1'),
        });
        expect(ok).toBe(false);
        expect(await store.load('k')).toEqual(current);
      });

      it('refuses a compaction whose turn count differs from what is stored, changing nothing', async () => {
        const ids = await fill(store, 'k', 3);
        const snap = await store.load('k');
        const ok = await store.compact('k', {
          throughId: ids[1]!,
          foldedTurns: 3,
          expectedVersion: snap.version,
          summary: summary('wrong'),
        });
        expect(ok).toBe(false);
        expect(await store.load('k')).toEqual(snap);
      });

      it('applies the same compaction only once', async () => {
        const ids = await fill(store, 'k', 2);
        const snap = await store.load('k');
        const compaction: Compaction = {
          throughId: ids[0]!,
          foldedTurns: 1,
          expectedVersion: snap.version,
          summary: summary('once'),
        };
        expect(await store.compact('k', compaction)).toBe(true);
        const after = await store.load('k');
        expect(await store.compact('k', { ...compaction, summary: summary('twice') })).toBe(false);
        expect(await store.load('k')).toEqual(after);
      });
    });

    describe('reset', () => {
      it('forgets the turns and the summary of that key only', async () => {
        const ids = await fill(store, 'k', 3);
        await store.appendTurn('other', turn(9));
        const snap = await store.load('k');
        await store.compact('k', {
          throughId: ids[0]!,
          foldedTurns: 1,
          expectedVersion: snap.version,
          summary: summary('s'),
        });
        await store.reset('k');
        const after = await store.load('k');
        expect(after).toMatchObject({ summary: null, summarizedTurns: 0, turns: [] });
        expect(await questions(store, 'other')).toEqual(['question 9']);
      });

      it('refuses a compaction planned before it, even once new turns match its count', async () => {
        await fill(store, 'k', 2);
        const before = await store.load('k');
        await store.reset('k');
        expect((await store.load('k')).version).not.toBe(before.version);
        const fresh = await fill(store, 'k', 2);
        const ok = await store.compact('k', {
          throughId: fresh[1]!,
          foldedTurns: 2,
          expectedVersion: before.version,
          summary: summary('from before the reset'),
        });
        expect(ok).toBe(false);
        const after = await store.load('k');
        expect(after.summary).toBeNull();
        expect(after.turns.map((t) => t.id)).toEqual(fresh);
      });
    });

    describe('concurrency', () => {
      it('lands every one of many parallel appends to one key, in id order, with distinct ids', async () => {
        const stored = await Promise.all(
          Array.from({ length: 40 }, (_, i) => store.appendTurn('k', turn(i + 1))),
        );
        expect(new Set(stored.map((t) => t.id)).size).toBe(40);
        const { turns } = await store.load('k');
        expect(turns.map((t) => t.id)).toEqual(stored.map((t) => t.id).sort((a, b) => a - b));
        expect(turns.map((t) => t.question).sort()).toEqual(stored.map((t) => t.question).sort());
      });

      it('lands parallel appends across keys, each in its own key', async () => {
        const keys = ['a', 'b', 'c', 'd'];
        await Promise.all(
          keys.flatMap((key) =>
            Array.from({ length: 10 }, (_, i) => store.appendTurn(key, turn(i + 1, key))),
          ),
        );
        for (const key of keys) {
          const { turns } = await store.load(key);
          expect(turns).toHaveLength(10);
          expect(new Set(turns.map((t) => t.author))).toEqual(new Set([key]));
          expect(turns.map((t) => t.id)).toEqual(turns.map((t) => t.id).sort((a, b) => a - b));
        }
      });

      it('keeps turns appended while a compaction runs', async () => {
        const ids = await fill(store, 'k', 4);
        const snap = await store.load('k');
        const [ok, ...appended] = await Promise.all([
          store.compact('k', {
            throughId: ids[1]!,
            foldedTurns: 2,
            expectedVersion: snap.version,
            summary: summary('1 and 2'),
          }),
          ...Array.from({ length: 10 }, (_, i) => store.appendTurn('k', turn(i + 5))),
        ]);
        expect(ok).toBe(true);
        const after = await store.load('k');
        expect(after.summarizedTurns).toBe(2);
        expect(after.turns.map((t) => t.id)).toEqual([
          ids[2],
          ids[3],
          ...appended.map((t) => t.id).sort((a, b) => a - b),
        ]);
      });

      it('lets only one of two connections apply compactions made from the same snapshot', async () => {
        const other = await f.reopen();
        const ids = await fill(store, 'k', 3);
        const snap = await other.load('k');
        const base = { throughId: ids[0]!, foldedTurns: 1, expectedVersion: snap.version };
        const results = await Promise.all([
          store.compact('k', { ...base, summary: summary('by one') }),
          other.compact('k', { ...base, summary: summary('by other') }),
        ]);
        expect(results.filter(Boolean)).toHaveLength(1);
        const after = await store.load('k');
        expect(after.summary?.text).toBe(results[0] ? 'by one' : 'by other');
        expect(after.summarizedTurns).toBe(1);
        expect(after.turns.map((t) => t.id)).toEqual(ids.slice(1));
      });
    });

    describe('lifecycle', () => {
      it('answers ping while open', async () => {
        await expect(store.ping()).resolves.toBeUndefined();
      });

      it('keeps everything across close and reopen', async () => {
        const ids = await fill(store, 'k', 3);
        const snap = await store.load('k');
        await store.compact('k', {
          throughId: ids[0]!,
          foldedTurns: 1,
          expectedVersion: snap.version,
          summary: summary('turn 1'),
        });
        const before = await store.load('k');
        await store.close();
        const again = await f.reopen();
        expect(await again.load('k')).toEqual(before);
        const next = await again.appendTurn('k', turn(4));
        expect(next.id).toBeGreaterThan(ids[2]!);
      });

      it('rejects every call after close with a StorageError, and closing twice is harmless', async () => {
        const ids = await fill(store, 'k', 1);
        await store.close();
        await expect(store.close()).resolves.toBeUndefined();
        const compaction: Compaction = {
          throughId: ids[0]!,
          foldedTurns: 1,
          expectedVersion: 0,
          summary: summary('s'),
        };
        const outcomes = await Promise.allSettled([
          store.ping(),
          store.load('k'),
          store.load('k', { maxTokens: 10, keep: 1 }),
          store.appendTurn('k', turn(2)),
          store.compact('k', compaction),
          store.reset('k'),
        ]);
        for (const outcome of outcomes) {
          expect(outcome.status).toBe('rejected');
          if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(StorageError);
        }
      });
    });
  });
}
