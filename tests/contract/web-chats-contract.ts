import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/core/ports/store.js';
import type { WebChatRun } from '../../src/core/ports/web-chat-store.js';
import type { StoreFixture } from './store-contract.js';

const T = Date.UTC(2026, 0, 15, 12);
const ANN = 'web:browser-ann';
const BOB = 'web:browser-bob';

const run = (id: string, over: Partial<WebChatRun> = {}): WebChatRun => ({
  id,
  question: `question ${id}`,
  phase: 'final',
  steps: [
    { kind: 'thought', text: `thinking about ${id}`, ok: true },
    { kind: 'action', text: 'calculator {"expression":"6*7"}', ok: true },
    { kind: 'observation', text: '42', ok: true },
  ],
  answer: `answer ${id}`,
  ...over,
});
const save = (store: Store, owner: string, key: string, r: WebChatRun, at = T, keep = 100) =>
  store.saveWebChatRun(owner, key, r, { title: r.question, keep, at });

/** The web chat behaviour every store implementation (SQLite, Postgres, ...) must show. */
export function webChatsContract(name: string, open: () => Promise<StoreFixture>): void {
  describe(`web chats contract: ${name}`, () => {
    let f: StoreFixture;
    let store: Store;
    beforeEach(async () => {
      f = await open();
      store = f.store;
    });
    afterEach(async () => {
      await f.cleanup();
    });

    it('keeps each answer with its steps, lists the owner’s chats newest first, and survives a restart', async () => {
      expect(await save(store, ANN, 'web:a1', run('r1'))).toBe(true);
      expect(
        await save(store, ANN, 'web:a1', run('r2', { phase: 'failed', answer: '', problem: 'boom' }), T + 1),
      ).toBe(true);
      expect(await save(store, ANN, 'web:a2', run('r3'), T + 2)).toBe(true);
      const reopened = await f.reopen();
      const chats = await reopened.listWebChats(ANN, 10);
      expect(chats.map((c) => [c.key, c.title])).toEqual([
        ['web:a2', 'question r3'],
        ['web:a1', 'question r1'],
      ]);
      expect(chats[1]).toMatchObject({ createdAt: T, updatedAt: T + 1 });
      expect(await reopened.webChatRuns(ANN, 'web:a1')).toEqual([
        run('r1'),
        run('r2', { phase: 'failed', answer: '', problem: 'boom' }),
      ]);
      expect(await reopened.listWebChats(ANN, 1)).toHaveLength(1);
    });

    it('shows no one another owner’s chats, and lets no one write, rename or delete them', async () => {
      await save(store, ANN, 'web:a1', run('r1'));
      expect(await store.listWebChats(BOB, 10)).toEqual([]);
      expect(await store.webChat(BOB, 'web:a1')).toBeUndefined();
      expect(await store.webChatRuns(BOB, 'web:a1')).toEqual([]);
      expect(await save(store, BOB, 'web:a1', run('evil'))).toBe(false);
      expect(await store.renameWebChat(BOB, 'web:a1', 'mine now')).toBe(false);
      expect(await store.deleteWebChat(BOB, 'web:a1')).toBe(false);
      expect(await store.forgetWebChats(BOB, 'web:a1')).toBe(0);
      expect(await store.webChat(ANN, 'web:a1')).toMatchObject({ title: 'question r1' });
      expect((await store.webChatRuns(ANN, 'web:a1')).map((r) => r.id)).toEqual(['r1']);
    });

    it('renames and deletes', async () => {
      await save(store, ANN, 'web:a1', run('r1'));
      await save(store, ANN, 'web:a2', run('r2'));
      expect(await store.renameWebChat(ANN, 'web:a1', 'Taxes 2026')).toBe(true);
      expect((await store.webChat(ANN, 'web:a1'))?.title).toBe('Taxes 2026');
      expect(await store.deleteWebChat(ANN, 'web:a2')).toBe(true);
      expect((await store.listWebChats(ANN, 10)).map((c) => c.key)).toEqual(['web:a1']);
      expect(await store.webChatRuns(ANN, 'web:a2')).toEqual([]);
      // A deleted chat started again is a new one: the old runs do not come back.
      await save(store, ANN, 'web:a2', run('r9'));
      expect((await store.webChatRuns(ANN, 'web:a2')).map((r) => r.id)).toEqual(['r9']);
    });

    it('keeps only the newest runs of a chat, and a run saved twice once', async () => {
      for (let i = 1; i <= 5; i++) await save(store, ANN, 'web:a1', run(`r${i}`), T + i, 3);
      await save(store, ANN, 'web:a1', run('r5', { answer: 'revised' }), T + 6, 3);
      const kept = await store.webChatRuns(ANN, 'web:a1');
      expect(kept.map((r) => r.id)).toEqual(['r3', 'r4', 'r5']);
      expect(kept.at(-1)?.answer).toBe('revised');
    });

    it('a memory reset clears the chat’s steps; forgetting a person forgets their chats', async () => {
      await save(store, ANN, 'web:a1', run('r1'));
      await save(store, ANN, 'web:a2', run('r2'));
      await save(store, BOB, 'web:b1', run('r3'));
      await store.reset('web:a1');
      expect(await store.webChatRuns(ANN, 'web:a1')).toEqual([]);
      expect(await store.webChatRuns(ANN, 'web:a2')).toHaveLength(1);
      await store.forgetPerson({ principal: ANN, key: 'web:a2', usageKeptSince: T });
      expect((await store.listWebChats(ANN, 10)).map((c) => c.key)).toEqual(['web:a1']);
      await save(store, ANN, 'web:a3', run('r4'));
      await store.forgetPerson({ principal: ANN, usageKeptSince: T });
      expect(await store.listWebChats(ANN, 10)).toEqual([]);
      expect((await store.listWebChats(BOB, 10)).map((c) => c.key)).toEqual(['web:b1']);
      await save(store, ANN, 'web:a3', run('r5'));
      expect(await store.forgetWebChats(ANN)).toBe(1);
      await store.clearWebChatRuns('web:b1');
      expect(await store.webChatRuns(BOB, 'web:b1')).toEqual([]);
    });
  });
}
