import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NewTurn } from '../../src/core/ports/conversation-store.js';
import type { Store } from '../../src/core/ports/store.js';
import { forgottenAlias } from '../../src/store/forget-steps.js';
import type { StoreFixture } from './store-contract.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2025, 2, 1, 12);

const turn = (question: string, answer: string, author = 'alice', principal?: string): NewTurn => ({
  author,
  question,
  answer,
  tokens: 10,
  ...(principal ? { principal } : {}),
});

/** Appends `t` as if stored on day `day` after T0. */
async function at(store: Store, day: number, key: string, t: NewTurn) {
  vi.setSystemTime(T0 + day * DAY);
  return store.appendTurn(key, t);
}

const search = (store: Store, query: string, extra: Partial<Parameters<Store['searchArchive']>[0]> = {}) =>
  store.searchArchive({ key: 'k', query, limit: 5, ...extra });

/** The archive (recall) and notes every store must provide. */
export function archiveContract(name: string, open: () => Promise<StoreFixture>): void {
  describe(`archive contract: ${name}`, () => {
    let f: StoreFixture;
    let store: Store;
    beforeEach(async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(T0);
      f = await open();
      store = f.store;
    });
    afterEach(async () => {
      vi.useRealTimers();
      await f.cleanup();
    });

    it('archives each turn when stored, and keeps it after it is folded into the summary', async () => {
      const a = await at(
        store,
        0,
        'k',
        turn('When is the release?', 'We agreed on 14 April for the release.'),
      );
      await at(store, 1, 'k', turn('And lunch?', 'Pizza.'));
      const snap = await store.load('k');
      expect(
        await store.compact('k', {
          throughId: a.id,
          foldedTurns: 1,
          expectedVersion: snap.version,
          summary: { text: 's', tokens: 1 },
        }),
      ).toBe(true);
      expect((await store.load('k')).turns).toHaveLength(1);
      const hits = await search(store, 'release date');
      expect(hits.map((h) => h.id)).toEqual([a.id]);
      expect(hits[0]).toMatchObject({
        key: 'k',
        author: 'alice',
        question: 'When is the release?',
        answer: 'We agreed on 14 April for the release.',
        createdAt: T0,
      });
    });

    it('ranks the best match first and the newest first among equals', async () => {
      const old = await at(store, 0, 'k', turn('deploy the billing service', 'done'));
      const both = await at(store, 1, 'k', turn('the billing service outage', 'the deploy broke billing'));
      const newer = await at(store, 2, 'k', turn('deploy the billing service', 'done'));
      await at(store, 3, 'k', turn('something else entirely', 'nothing here'));
      const ids = (await search(store, 'billing deploy outage')).map((h) => h.id);
      expect(ids[0]).toBe(both.id);
      expect(ids.slice(1)).toEqual([newer.id, old.id]);
    });

    it('finds error codes and identifiers, inside longer words too', async () => {
      const code = await at(
        store,
        0,
        'k',
        turn('what did the log say?', 'It failed with ECONNRESET at parse_config_v2.'),
      );
      await at(store, 1, 'k', turn('weather?', 'sunny'));
      expect((await search(store, 'ECONNRESET')).map((h) => h.id)).toEqual([code.id]);
      expect((await search(store, 'parse_config_v2')).map((h) => h.id)).toEqual([code.id]);
      expect((await search(store, 'connreset')).map((h) => h.id)).toEqual([code.id]);
    });

    it('returns only the turns of the conversation asked about', async () => {
      await at(store, 0, 'other', turn('the secret plan', 'is hidden'));
      await at(store, 0, 'k:thread', turn('the secret plan', 'in a thread'));
      const mine = await at(store, 0, 'k', turn('the secret plan', 'is ours'));
      expect((await search(store, 'secret plan')).map((h) => h.id)).toEqual([mine.id]);
    });

    it('filters by date and by speaker', async () => {
      const march = await at(
        store,
        0,
        'k',
        turn('budget numbers', 'march figures', 'Sam Jones', 'slack:T:U1'),
      );
      const april = await at(store, 31, 'k', turn('budget numbers', 'april figures', 'Ana'));
      expect((await search(store, 'budget', { from: T0 + 10 * DAY })).map((h) => h.id)).toEqual([april.id]);
      expect((await search(store, 'budget', { to: T0 + 10 * DAY })).map((h) => h.id)).toEqual([march.id]);
      expect((await search(store, 'budget', { speaker: 'sam' })).map((h) => h.id)).toEqual([march.id]);
      expect((await search(store, 'budget', { speaker: 'slack:T:U1' })).map((h) => h.id)).toEqual([march.id]);
      expect((await search(store, 'budget', { limit: 1 })).map((h) => h.id)).toEqual([april.id]);
    });

    it('never fails on hostile queries', async () => {
      const t = await at(store, 0, 'k', turn('NEAR the OR gate', 'a "quoted" (thing) with - and *'));
      const hostile = [
        '"',
        '"unbalanced',
        '*',
        'gate*',
        'NEAR(gate OR thing)',
        'OR',
        'AND NOT',
        '-gate',
        '((thing',
        'thing))',
        'col:gate',
        '^gate',
        "'; DROP TABLE archive; --",
        '!thing & | <->',
        '',
        '   ',
        '\u0000gate',
        'x'.repeat(10_240),
        'gate '.repeat(2048),
      ];
      for (const query of hostile) {
        await expect(search(store, query), query.slice(0, 40)).resolves.toBeInstanceOf(Array);
      }
      expect((await search(store, 'NEAR(gate OR "thing')).map((h) => h.id)).toEqual([t.id]);
      expect(await search(store, 'the of and')).toEqual([]);
    });

    it('reset clears the archive and the channel notes, not a person’s own notes', async () => {
      await at(store, 0, 'k', turn('release plan', 'friday'));
      await store.addNote({ key: 'k', subject: null, text: 'deploys on Tuesdays', author: 'slack:T:U1' });
      const mine = await store.addNote({
        key: 'k',
        subject: 'slack:T:U1',
        text: 'prefers metric',
        author: 'slack:T:U1',
      });
      await at(store, 0, 'other', turn('release plan', 'monday'));
      await store.reset('k');
      expect(await search(store, 'release')).toEqual([]);
      expect(await store.archivedTurns('k', 0, 10)).toEqual([]);
      expect((await store.notesFor('k', 'slack:T:U1')).map((n) => n.id)).toEqual([mine.id]);
      expect(await search(store, 'release', { key: 'other' })).toHaveLength(1);
    });

    it('keeps notes per channel and per person; a person’s notes follow them to any channel', async () => {
      const channel = await store.addNote({
        key: 'k',
        subject: null,
        text: 'deploys on Tuesdays',
        author: 'discord:1',
      });
      const person = await store.addNote({
        key: 'k',
        subject: 'discord:1',
        text: 'Ana prefers metric',
        author: 'discord:1',
      });
      await store.addNote({ key: 'other', subject: null, text: 'not here', author: 'discord:2' });
      expect(await store.notesFor('k')).toEqual([channel]);
      expect((await store.notesFor('elsewhere', 'discord:1')).map((n) => n.text)).toEqual([
        'Ana prefers metric',
      ]);
      expect((await store.notesFor('k', 'discord:1')).map((n) => n.id)).toEqual([channel.id, person.id]);
      expect(channel.createdAt).toBe(T0);
      expect(await store.deleteNote(channel.id)).toBe(true);
      expect(await store.deleteNote(channel.id)).toBe(false);
      expect(await store.notesFor('k')).toEqual([]);
    });

    it('forget-me deletes a person’s turns, notes and usage details in one channel, or everywhere', async () => {
      const p = 'slack:T:U1';
      await at(store, 0, 'k', turn('my phone is 555-0101', 'noted', 'Sam', p));
      const other = await at(store, 0, 'k', turn('my phone is 555-0199', 'noted', 'Ana', 'slack:T:U2'));
      await at(store, 0, 'k2', turn('my phone is 555-0101', 'noted', 'Sam', p));
      await store.addNote({ key: 'k', subject: p, text: 'Sam likes tea', author: p });
      await store.addNote({ key: 'k', subject: null, text: 'Sam said deploys are on Friday', author: p });
      await store.addNote({ key: 'k2', subject: p, text: 'Sam likes coffee', author: p });
      await store.record({ ...usage(p, 'k', T0 - 2 * DAY) });
      await store.record({ ...usage(p, 'k', T0) });

      const here = await store.forgetPerson({ principal: p, key: 'k', usageKeptSince: T0 - DAY });
      expect(here).toMatchObject({ turns: 1, notes: 2, usage: 2 });
      expect((await search(store, 'phone')).map((h) => h.id)).toEqual([other.id]);
      expect((await store.load('k')).turns.map((t) => t.id)).toEqual([other.id]);
      expect((await store.notesFor('k2', p)).map((n) => n.text)).toEqual(['Sam likes coffee']);
      const users = (await store.records({ since: 0, until: T0 + DAY })).map((r) => r.userId);
      // The recent record keeps counting for the person's limits under a pseudonym, not their name.
      expect(users).toEqual(['forgotten', forgottenAlias(p)]);

      const everywhere = await store.forgetPerson({ principal: p, usageKeptSince: T0 - DAY });
      expect(everywhere).toMatchObject({ turns: 1, notes: 1 });
      expect(await search(store, 'phone', { key: 'k2' })).toEqual([]);
      expect(await store.notesFor('k2', p)).toEqual([]);
    });

    it('a forget-me between a compaction’s read and its write makes the compaction stale', async () => {
      const p = 'discord:9';
      const a = await at(store, 0, 'k', turn('one', 'a'));
      await at(store, 0, 'k', turn('two', 'b', 'Bo', p));
      const c = await at(store, 0, 'k', turn('three', 'c'));
      const snap = await store.load('k');
      await store.forgetPerson({ principal: p, key: 'k', usageKeptSince: 0 });
      const applied = await store.compact('k', {
        throughId: c.id,
        foldedTurns: 3,
        expectedVersion: snap.version,
        summary: { text: 'two was said', tokens: 3 },
      });
      expect(applied).toBe(false);
      expect((await store.load('k')).turns.map((t) => t.id)).toEqual([a.id, c.id]);
    });

    it('retention drops archived turns older than the cut-off, and exports read in id order', async () => {
      const old = await at(store, 0, 'k', turn('ancient history', 'yes'));
      const recent = await at(store, 100, 'k', turn('recent history', 'yes'));
      expect((await store.archivedTurns('k', 0, 10)).map((t) => t.id)).toEqual([old.id, recent.id]);
      expect((await store.archivedTurns('k', old.id, 10)).map((t) => t.id)).toEqual([recent.id]);
      expect(await store.pruneArchive(T0 + 50 * DAY)).toBe(1);
      expect((await search(store, 'history')).map((h) => h.id)).toEqual([recent.id]);
      // The verbatim turns are the channel's working memory, left to compression.
      expect((await store.load('k')).turns).toHaveLength(2);
    });

    it('keeps turns’ embeddings per model and reads them by conversation, after an id', async () => {
      const a = await at(store, 0, 'k', turn('Who owns Kasa?', 'Marisol owns Kasa.', 'Ann'));
      const b = await at(store, 1, 'k', turn('Lunch?', 'Pizza.'));
      const c = await at(store, 1, 'other', turn('Secret?', 'Yes.'));
      const waiting = await store.turnsToEmbed('m1', 10);
      expect(waiting.map((t) => [t.id, t.key])).toEqual([
        [a.id, 'k'],
        [b.id, 'k'],
        [c.id, 'other'],
      ]);
      expect(waiting[0]!.text).toBe('Ann: Who owns Kasa?\nMarisol owns Kasa.');
      await store.putTurnEmbeddings('m1', [
        { id: a.id, embedding: new Float32Array([1, 0.5]) },
        { id: b.id, embedding: new Float32Array([0, -2]) },
        { id: 999_999, embedding: new Float32Array([9, 9]) },
      ]);
      expect((await store.turnsToEmbed('m1', 10)).map((t) => t.id)).toEqual([c.id]);
      expect((await store.turnsToEmbed('m2', 10)).length).toBe(3);
      const kept = await store.turnEmbeddings('k', 'm1', 0, 10);
      expect(kept.map((e) => [e.id, [...e.embedding]])).toEqual([
        [a.id, [1, 0.5]],
        [b.id, [0, -2]],
      ]);
      expect((await store.turnEmbeddings('k', 'm1', a.id, 10)).map((e) => e.id)).toEqual([b.id]);
      expect(await store.turnEmbeddings('other', 'm1', 0, 10)).toEqual([]);
      const turns = await store.archivedTurnsByIds('k', [b.id, c.id, a.id]);
      expect(turns.map((t) => t.id).sort((x, y) => x - y)).toEqual([a.id, b.id]);
      expect(turns.find((t) => t.id === a.id)).toMatchObject({
        author: 'Ann',
        answer: 'Marisol owns Kasa.',
        createdAt: T0,
      });
    });

    it('appends racing a compaction all reach the archive', async () => {
      const first = await at(store, 0, 'k', turn('alpha zero', 'x'));
      const snap = await store.load('k');
      const racing = Array.from({ length: 20 }, (_, i) => store.appendTurn('k', turn(`alpha ${i + 1}`, 'y')));
      const compaction = store.compact('k', {
        throughId: first.id,
        foldedTurns: 1,
        expectedVersion: snap.version,
        summary: { text: 's', tokens: 1 },
      });
      await Promise.all([...racing, compaction]);
      expect(await store.archivedTurns('k', 0, 100)).toHaveLength(21);
    });
  });
}

function usage(userId: string, key: string, at: number) {
  return {
    at,
    platform: 'slack',
    key,
    userId,
    model: 'm',
    protocol: 'tools',
    outcome: 'answered' as const,
    modelCalls: 1,
    promptTokens: 1,
    completionTokens: 1,
    cachedTokens: 0,
    tools: {},
    durationMs: 1,
  };
}
