import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoreFixture } from './store-contract.js';

const HOUR = 60 * 60_000;
const T = Date.UTC(2026, 11, 6, 12);

/** Followed threads: every store implementation keeps whom the bot answered where, and when it stood back. */
export function followsContract(name: string, open: () => Promise<StoreFixture>): void {
  describe(`followed threads contract: ${name}`, () => {
    let f: StoreFixture;
    beforeEach(async () => {
      f = await open();
    });
    afterEach(async () => {
      await f.cleanup();
    });

    it('keeps the first asker and standing back across answers and restarts; starts afresh after idling', async () => {
      const key = 'slack:T1:C1:100.1';
      expect(await f.store.followedThread(key)).toBeUndefined();
      await f.store.followThread(key, 'slack:T1:UA', T, T - 24 * HOUR);
      expect(await f.store.followedThread(key)).toEqual({
        key,
        asker: 'slack:T1:UA',
        lastAt: T,
        stoodBack: false,
      });

      await f.store.standBack(key);
      // The bot answers someone else's mention there: the thread keeps its asker and stays stood back.
      await f.store.followThread(key, 'slack:T1:UB', T + HOUR, T + HOUR - 24 * HOUR);
      const reopened = await f.reopen();
      expect(await reopened.followedThread(key)).toEqual({
        key,
        asker: 'slack:T1:UA',
        lastAt: T + HOUR,
        stoodBack: true,
      });

      // A day and more later the thread starts afresh with whoever the bot answers now.
      const later = T + 30 * HOUR;
      await f.store.followThread(key, 'slack:T1:UB', later, later - 24 * HOUR);
      expect(await f.store.followedThread(key)).toEqual({
        key,
        asker: 'slack:T1:UB',
        lastAt: later,
        stoodBack: false,
      });
      // An older write arriving late never moves the time back.
      await f.store.followThread(key, 'slack:T1:UB', T, T - 24 * HOUR);
      expect((await f.store.followedThread(key))?.lastAt).toBe(later);
    });

    it('forgets threads idle since before a time, and only those', async () => {
      await f.store.followThread('a', 'p', T, 0);
      await f.store.followThread('b', 'p', T + HOUR, 0);
      expect(await f.store.forgetFollowsBefore(T + 1)).toBe(1);
      expect(await f.store.followedThread('a')).toBeUndefined();
      expect(await f.store.followedThread('b')).toBeDefined();
    });
  });
}
