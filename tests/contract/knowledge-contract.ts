import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BASE_SCOPE, type KnowledgeFile } from '../../src/core/ports/knowledge-store.js';
import type { StoreFixture } from './store-contract.js';

const T = Date.UTC(2026, 11, 6, 12);
const file = (
  scope: string,
  path: string,
  passages: number,
  extra: Partial<KnowledgeFile> = {},
): KnowledgeFile => ({
  scope,
  path,
  size: 1000,
  modifiedAt: T,
  indexedAt: T,
  passages,
  ...extra,
});

/** The knowledge base: every store implementation keeps documents' passages per scope and finds them by words. */
export function knowledgeContract(name: string, open: () => Promise<StoreFixture>): void {
  describe(`knowledge contract: ${name}`, () => {
    let f: StoreFixture;
    beforeEach(async () => {
      f = await open();
      await f.store.putKnowledgeFile(file(BASE_SCOPE, 'handbook/oncall.md', 2), [
        { heading: 'Rotation', text: 'On-call swaps need the manager’s approval two days ahead.' },
        { heading: 'Escalation', text: 'Page the team lead after fifteen minutes without an answer.' },
      ]);
      await f.store.putKnowledgeFile(file(BASE_SCOPE, 'policies/travel.pdf', 1), [
        { page: 3, text: 'Hotels are paid up to 150 EUR a night.' },
      ]);
      await f.store.putKnowledgeFile(file('slack:T1:C1', 'secret-plan.pdf', 1, { sharedBy: 'slack:T1:UA' }), [
        { page: 1, text: 'The launch moves to March; swaps of launch duty go through Ann.' },
      ]);
    });
    afterEach(async () => {
      await f.cleanup();
    });

    it('finds passages by their words, with where they are, only in the scopes asked', async () => {
      const hits = await f.store.searchKnowledge([BASE_SCOPE], 'on-call swaps approval', 5);
      expect(hits[0]).toEqual({
        scope: BASE_SCOPE,
        path: 'handbook/oncall.md',
        ordinal: 0,
        heading: 'Rotation',
        text: 'On-call swaps need the manager’s approval two days ahead.',
      });
      expect(hits.some((h) => h.path === 'secret-plan.pdf')).toBe(false);
      const hotel = await f.store.searchKnowledge([BASE_SCOPE], 'hotels', 5);
      expect(hotel).toEqual([
        {
          scope: BASE_SCOPE,
          path: 'policies/travel.pdf',
          ordinal: 0,
          page: 3,
          text: 'Hotels are paid up to 150 EUR a night.',
        },
      ]);
      const inChannel = await f.store.searchKnowledge([BASE_SCOPE, 'slack:T1:C1'], 'launch', 5);
      expect(inChannel.map((h) => h.path)).toEqual(['secret-plan.pdf']);
      expect(await f.store.searchKnowledge([BASE_SCOPE, 'slack:T1:C2'], 'launch', 5)).toEqual([]);
      expect(await f.store.searchKnowledge([BASE_SCOPE], '"); DROP TABLE x; --', 5)).toEqual([]);
    });

    it('replaces a file whole, lists a scope’s files, and forgets a file or a whole scope', async () => {
      await f.store.putKnowledgeFile(file(BASE_SCOPE, 'handbook/oncall.md', 1, { modifiedAt: T + 1 }), [
        { heading: 'Rotation', text: 'Swaps are free now.' },
      ]);
      const reopened = await f.reopen();
      expect((await reopened.searchKnowledge([BASE_SCOPE], 'approval', 5)).length).toBe(0);
      expect(
        (await reopened.knowledgeFiles(BASE_SCOPE)).map((k) => [k.path, k.passages, k.modifiedAt]),
      ).toEqual([
        ['handbook/oncall.md', 1, T + 1],
        ['policies/travel.pdf', 1, T],
      ]);
      await f.store.putKnowledgeFile(
        file(BASE_SCOPE, 'broken.pdf', 0, { error: 'it is password-protected' }),
        [],
      );
      expect((await f.store.knowledgeFiles(BASE_SCOPE)).find((k) => k.path === 'broken.pdf')?.error).toBe(
        'it is password-protected',
      );
      expect(await f.store.forgetKnowledgeFile(BASE_SCOPE, 'policies/travel.pdf')).toBe(true);
      expect(await f.store.forgetKnowledgeFile(BASE_SCOPE, 'policies/travel.pdf')).toBe(false);
      expect(await f.store.searchKnowledge([BASE_SCOPE], 'hotels', 5)).toEqual([]);
      expect(await f.store.forgetKnowledgeScope('slack:T1:C1')).toBe(1);
      expect(await f.store.searchKnowledge(['slack:T1:C1'], 'launch', 5)).toEqual([]);
      expect((await f.store.knowledgeFiles('slack:T1:C1')).length).toBe(0);
    });

    it('finds the passage with a rare word among thousands that share the common ones', async () => {
      const common = Array.from({ length: 4500 }, (_, i) => ({
        heading: `Part ${i}`,
        text: `The travel policy says the team review happens weekly, item ${i}.`,
      }));
      common.splice(4321, 0, {
        heading: 'Part rare',
        text: 'The travel policy says the team review of project Zanzibar happens monthly.',
      });
      await f.store.putKnowledgeFile(file(BASE_SCOPE, 'bulk/policy.md', common.length), common);
      const hits = await f.store.searchKnowledge([BASE_SCOPE], 'travel policy review zanzibar', 3);
      expect(hits[0]?.heading).toBe('Part rare');
      const everywhere = await f.store.searchKnowledge([BASE_SCOPE], 'travel policy review', 3);
      expect(everywhere).toHaveLength(3);
      const unknownWord = await f.store.searchKnowledge([BASE_SCOPE], 'travel policy xylophonic', 3);
      expect(unknownWord).toHaveLength(3);
      // A rare word found only in another channel's file takes nothing away here.
      await f.store.putKnowledgeFile(file('slack:T1:C9', 'zephyr.md', 1), [{ text: 'Zephyr travel plans.' }]);
      const elsewhere = await f.store.searchKnowledge([BASE_SCOPE], 'zephyr travel policy', 3);
      expect(elsewhere).toHaveLength(3);
      expect(elsewhere.every((h) => h.scope === BASE_SCOPE)).toBe(true);
      // Fewer rare matches than asked: the common words fill the places left, the rare one first.
      const both = await f.store.searchKnowledge([BASE_SCOPE], 'travel policy review zanzibar', 4);
      expect(both.map((h) => h.heading)[0]).toBe('Part rare');
      expect(both).toHaveLength(4);
    });

    it('keeps embeddings per model, marks their files changed, and forgets them with the passages', async () => {
      const vector = (...v: number[]) => new Float32Array(v);
      const waiting = await f.store.passagesToEmbed('m1', 10);
      expect(waiting.map((p) => [p.path, p.ordinal, p.heading])).toEqual(
        expect.arrayContaining([
          ['handbook/oncall.md', 0, 'Rotation'],
          ['handbook/oncall.md', 1, 'Escalation'],
          ['policies/travel.pdf', 0, undefined],
        ]),
      );
      expect(waiting).toHaveLength(4);
      const before = (await f.store.knowledgeFiles(BASE_SCOPE)).find((k) => k.path === 'handbook/oncall.md');
      const swap = 'On-call swaps need the manager’s approval two days ahead.';
      const page = 'Page the team lead after fifteen minutes without an answer.';
      await f.store.putEmbeddings(
        'm1',
        [
          {
            scope: BASE_SCOPE,
            path: 'handbook/oncall.md',
            ordinal: 1,
            text: page,
            embedding: vector(0.5, -1.25, 3),
          },
          {
            scope: BASE_SCOPE,
            path: 'handbook/oncall.md',
            ordinal: 0,
            text: swap,
            embedding: vector(1, 2, 3),
          },
          { scope: BASE_SCOPE, path: 'gone.md', ordinal: 0, text: 'x', embedding: vector(9, 9, 9) },
        ],
        T,
      );
      const after = (await f.store.knowledgeFiles(BASE_SCOPE)).find((k) => k.path === 'handbook/oncall.md');
      expect(after!.indexedAt).toBeGreaterThan(before!.indexedAt);
      const kept = await f.store.knowledgeEmbeddings(BASE_SCOPE, 'handbook/oncall.md', 'm1');
      expect(kept.map((e) => [e.ordinal, [...e.embedding]])).toEqual([
        [0, [1, 2, 3]],
        [1, [0.5, -1.25, 3]],
      ]);
      expect(await f.store.knowledgeEmbeddings(BASE_SCOPE, 'handbook/oncall.md', 'm2')).toEqual([]);
      expect((await f.store.passagesToEmbed('m1', 10)).map((p) => p.path).sort()).toEqual([
        'policies/travel.pdf',
        'secret-plan.pdf',
      ]);
      expect((await f.store.passagesToEmbed('m2', 10)).length).toBe(4);
      const read = await f.store.knowledgePassages([
        { scope: BASE_SCOPE, path: 'handbook/oncall.md', ordinal: 1 },
        { scope: BASE_SCOPE, path: 'handbook/oncall.md', ordinal: 7 },
      ]);
      expect(read.map((h) => h.heading)).toEqual(['Escalation']);
      // Re-indexed: an unchanged passage keeps its embedding wherever it now is, a changed one waits again.
      await f.store.putKnowledgeFile(file(BASE_SCOPE, 'handbook/oncall.md', 2), [
        { heading: 'Intro', text: 'New text.' },
        { heading: 'Rotation', text: swap },
      ]);
      const again = await f.store.knowledgeEmbeddings(BASE_SCOPE, 'handbook/oncall.md', 'm1');
      expect(again.map((e) => [e.ordinal, [...e.embedding]])).toEqual([[1, [1, 2, 3]]]);
      // An embedding made of text the passage no longer holds (its file changed meanwhile) is not kept.
      const [intro] = (await f.store.passagesToEmbed('m1', 10)).filter(
        (p) => p.path === 'handbook/oncall.md',
      );
      await f.store.putKnowledgeFile(file(BASE_SCOPE, 'handbook/oncall.md', 1), [
        { heading: 'Intro', text: 'Newer.' },
      ]);
      await f.store.putEmbeddings('m1', [{ ...intro!, embedding: vector(7, 7, 7) }], T + 5);
      expect(await f.store.knowledgeEmbeddings(BASE_SCOPE, 'handbook/oncall.md', 'm1')).toEqual([]);
      expect((await f.store.passagesToEmbed('m1', 10)).map((p) => p.text)).toContain('Newer.');
    });
  });
}
