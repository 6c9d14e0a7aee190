import { describe, expect, it } from 'vitest';
import { createMathPool } from '../../../src/core/tools/calculator-pool.js';

/** Long enough that only the abort below ends it; the sandbox's own time limit stays out of the way. */
const COSTLY = 'det(random([450, 450]))';
const limits = { timeLimitMs: 60_000 };

/**
 * Starts a costly expression, then a cheap one; the costly one is cancelled as soon as the cheap one is
 * answered. Returns the order in which the two settled.
 */
async function race(workers: number): Promise<string[]> {
  const pool = createMathPool(workers, limits);
  await Promise.all(Array.from({ length: workers }, () => pool.evaluate('1 + 1'))); // every process up
  const order: string[] = [];
  const stop = new AbortController();
  const costly = pool.evaluate(COSTLY, stop.signal).then(
    () => order.push('costly'),
    () => order.push('costly'),
  );
  const cheap = pool.evaluate('6 * 7').then((value) => {
    order.push(`cheap = ${value}`);
    stop.abort();
  });
  await Promise.all([costly, cheap]);
  return order;
}

describe('the calculator pool', () => {
  it('answers a cheap expression while a costly one holds another process', async () => {
    expect(await race(2)).toEqual(['cheap = 42', 'costly']);
  });

  it('with one process, the cheap expression waits for the costly one (what the pool is for)', async () => {
    expect(await race(1)).toEqual(['costly', 'cheap = 42']);
  });

  it('serves waiting expressions first come, first served, each with its own result', async () => {
    const pool = createMathPool(2);
    const results = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => pool.evaluate(`${n} * 11`)));
    expect(results).toEqual(['11', '22', '33', '44', '55', '66']);
  });
});
