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
        heading: 'Rotation',
        text: 'On-call swaps need the manager’s approval two days ahead.',
      });
      expect(hits.some((h) => h.path === 'secret-plan.pdf')).toBe(false);
      const hotel = await f.store.searchKnowledge([BASE_SCOPE], 'hotels', 5);
      expect(hotel).toEqual([
        {
          scope: BASE_SCOPE,
          path: 'policies/travel.pdf',
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
  });
}
