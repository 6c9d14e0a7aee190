import { describe, expect, it } from 'vitest';
import { createCircuitBreaker } from '../../../src/core/llm/circuit-breaker.js';

describe('a circuit breaker', () => {
  it('opens on failure for the cooldown, then lets one trial through at a time until one succeeds', () => {
    let now = 0;
    const breaker = createCircuitBreaker(1000, () => now);
    expect(breaker.acquire()).toBe(true);
    expect(breaker.acquire()).toBe(true); // closed: every request

    breaker.failed();
    expect(breaker.state()).toBe('open');
    now = 999;
    expect(breaker.acquire()).toBe(false);

    now = 1000;
    expect(breaker.available()).toBe(true);
    expect(breaker.acquire()).toBe(true); // the trial
    expect(breaker.acquire()).toBe(false); // one at a time
    breaker.failed(); // the trial failed: another cooldown
    now = 1999;
    expect(breaker.acquire()).toBe(false);

    now = 2000;
    expect(breaker.acquire()).toBe(true);
    breaker.released(); // cancelled: says nothing of the endpoint, the next request tries instead
    expect(breaker.acquire()).toBe(true);
    breaker.succeeded();
    expect(breaker.state()).toBe('closed');
    expect([breaker.acquire(), breaker.acquire()]).toEqual([true, true]);
  });
});
