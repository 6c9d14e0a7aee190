import { describe, expect, it } from 'vitest';
import { turnsToFold } from '../../../src/core/memory/fold-policy.js';
import type { MemoryBudget } from '../../../src/core/memory/types.js';

const budget = (max: number, keep: number): MemoryBudget => ({
  MEMORY_MAX_TOKENS: max,
  MEMORY_KEEP_TURNS: keep,
  MEMORY_SUMMARY_MAX_TOKENS: 50,
});

describe('turnsToFold', () => {
  it('folds nothing while the turns fit the budget, including exactly at it', () => {
    expect(turnsToFold([], budget(100, 2))).toBe(0);
    expect(turnsToFold([30, 30, 30], budget(100, 2))).toBe(0);
    expect(turnsToFold([25, 25, 25, 25], budget(100, 2))).toBe(0);
  });

  it('folds nothing while there are no more than MEMORY_KEEP_TURNS turns, however large', () => {
    expect(turnsToFold([500, 500], budget(100, 2))).toBe(0);
    expect(turnsToFold([500, 500, 500], budget(100, 3))).toBe(0);
  });

  it('folds the oldest turns once both thresholds are passed, down to half the budget', () => {
    // 101 > 100 and 4 > 2: fold oldest until the rest is at most 50.
    expect(turnsToFold([26, 25, 25, 25], budget(100, 2))).toBe(2);
    expect(turnsToFold([10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10], budget(100, 2))).toBe(6);
  });

  it('never leaves fewer than MEMORY_KEEP_TURNS verbatim', () => {
    expect(turnsToFold([60, 60, 60, 60], budget(100, 3))).toBe(1);
    expect(turnsToFold([60, 60, 60, 60], budget(100, 0))).toBe(4);
  });

  it('folds at most four budgets of turns in one call, and always at least one', () => {
    expect(turnsToFold(Array(100).fill(10), budget(100, 2))).toBe(40);
    expect(turnsToFold([1000, 10, 10], budget(100, 2))).toBe(1);
  });
});
