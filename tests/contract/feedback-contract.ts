import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FeedbackEntry } from '../../src/core/ports/feedback-store.js';
import type { Store } from '../../src/core/ports/store.js';
import type { StoreFixture } from './store-contract.js';

const T = Date.UTC(2026, 0, 15, 12);
const DAY = 86_400_000;

const vote = (over: Partial<FeedbackEntry> = {}): FeedbackEntry => ({
  runId: 'r1',
  platform: 'discord',
  key: 'discord:g:c1',
  userId: 'u1',
  vote: 'up',
  at: T,
  ...over,
});

/** The feedback behaviour every store implementation (SQLite, Postgres, ...) must show. */
export function feedbackContract(name: string, open: () => Promise<StoreFixture>): void {
  describe(`feedback contract: ${name}`, () => {
    let f: StoreFixture;
    let store: Store;
    beforeEach(async () => {
      f = await open();
      store = f.store;
    });
    afterEach(async () => {
      await f.cleanup();
    });
    const month = { since: T - DAY, until: T + DAY };

    it('counts one vote per person and answer: a second press changes it, never doubles it', async () => {
      await store.recordFeedback(vote());
      await store.recordFeedback(vote({ at: T + 1 }));
      expect(await store.feedbackTotals(month)).toEqual({ up: 1, down: 0, comments: 0 });
      await store.recordFeedback(vote({ vote: 'down', at: T + 2 }));
      expect(await store.feedbackTotals(month)).toEqual({ up: 0, down: 1, comments: 0 });
    });

    it('counts other people and other answers apart, by platform when asked', async () => {
      await store.recordFeedback(vote());
      await store.recordFeedback(vote({ userId: 'u2', vote: 'down' }));
      await store.recordFeedback(vote({ runId: 'r2' }));
      await store.recordFeedback(vote({ platform: 'slack', key: 'slack:T:C', userId: 'U1' }));
      expect(await store.feedbackTotals(month)).toEqual({ up: 3, down: 1, comments: 0 });
      expect(await store.feedbackTotals({ ...month, platform: 'slack' })).toEqual({
        up: 1,
        down: 0,
        comments: 0,
      });
    });

    it('counts only the period asked for', async () => {
      await store.recordFeedback(vote({ at: T - 2 * DAY }));
      await store.recordFeedback(vote({ runId: 'r2', at: T }));
      expect(await store.feedbackTotals(month)).toEqual({ up: 1, down: 0, comments: 0 });
      expect(await store.feedbackTotals({ since: T + DAY, until: T + 2 * DAY })).toEqual({
        up: 0,
        down: 0,
        comments: 0,
      });
    });

    it('keeps a comment across a changed vote, and survives a restart', async () => {
      await store.recordFeedback(vote({ vote: 'down', comment: 'wrong city' }));
      await store.recordFeedback(vote({ vote: 'down', at: T + 1 }));
      await store.recordFeedback(vote({ userId: 'u2', comment: 'spot on' }));
      await store.recordFeedback(vote({ userId: 'u2', comment: 'spot on, thanks', at: T + 1 }));
      const reopened = await f.reopen();
      expect(await reopened.feedbackTotals(month)).toEqual({ up: 1, down: 1, comments: 2 });
    });
  });
}
