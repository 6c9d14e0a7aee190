import { describe, expect, it } from 'vitest';
import { createStreamBudget } from '../../../src/platforms/slack/stream-budget.js';

describe('stream budget (per workspace, per minute)', () => {
  it('takes a stream only while its stop is sure to fit, so stops always have room', () => {
    let clock = 0;
    const budget = createStreamBudget({ start: 3, stop: 3, append: 2 }, () => clock);
    const tickets = [budget.take('T1'), budget.take('T1'), budget.take('T1')];
    expect(tickets.every(Boolean)).toBe(true);
    expect(budget.take('T1')).toBeUndefined(); // a fourth start would not fit
    expect(budget.take('T2')).toBeDefined(); // another workspace counts on its own
    for (const t of tickets) t!.started();
    tickets[0]!.stopped();
    // The start window is full for a minute, whatever is stopped.
    expect(budget.take('T1')).toBeUndefined();
    clock += 60_001;
    // Two stops are still reserved and one was made within the minute before: one more fits, not two.
    expect(budget.take('T1')).toBeDefined();
    expect(budget.take('T1')).toBeUndefined();
  });

  it('frees a reserved stop that will not be made, and paces appends', () => {
    let clock = 0;
    const budget = createStreamBudget({ start: 5, stop: 1, append: 2 }, () => clock);
    const ticket = budget.take('T1')!;
    expect(budget.take('T1')).toBeUndefined();
    ticket.release(); // the stream never started
    const next = budget.take('T1')!;
    expect(next.append()).toBe(0);
    expect(next.append()).toBe(0);
    clock += 10_000;
    expect(next.append()).toBe(50_001);
    clock += 50_001;
    expect(next.append()).toBe(0);
  });
});
