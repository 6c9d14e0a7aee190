import { describe, expect, it } from 'vitest';
import { PAUSE_EVERY_MS, pauseIfBusy } from '../../../src/core/util/pauser.js';

/** Keeps the CPU busy for `ms` without yielding. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {}
}

describe('the shared pauser', () => {
  it('costs nothing (no promise) when the loop has just turned', async () => {
    await new Promise((resolve) => setImmediate(resolve));
    expect(pauseIfBusy()).toBeUndefined();
  });

  it('lets a timer in while many callers keep working, and lets every caller finish, in order', async () => {
    let timerFiredAfter = -1;
    const finished: number[] = [];
    setTimeout(() => {
      timerFiredAfter = finished.length;
    }, 0);
    // 100 pieces of 1 ms each: without the pauser they would run in one block of 100 ms, the timer after all.
    await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const paused = pauseIfBusy();
        if (paused) await paused;
        busy(1);
        finished.push(i);
      }),
    );
    expect(finished).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(timerFiredAfter).toBeGreaterThan(0);
    expect(timerFiredAfter).toBeLessThan(100 - PAUSE_EVERY_MS);
  });
});
