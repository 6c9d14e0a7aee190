import { describe, expect, it } from 'vitest';
import { createTaskCards } from '../../../src/platforms/slack/task-chunks.js';

describe('Slack task cards: a call waiting for approval', () => {
  it('marks the action card pending while it waits, and back in progress once decided', () => {
    const cards = createTaskCards();
    const action = cards.step({
      kind: 'action',
      step: 2,
      tool: 'github__create_issue',
      input: { title: 'x' },
    });
    expect(action.status).toBe('in_progress');
    expect(cards.awaiting(2, 'github__create_issue', true)).toMatchObject({
      id: action.id,
      status: 'pending',
      title: 'Waiting for approval: github\\_\\_create\\_issue'.replace(/\\/g, ''),
    });
    expect(cards.awaiting(2, 'github__create_issue', true)).toBeUndefined();
    expect(cards.awaiting(2, 'github__create_issue', false)).toMatchObject({
      id: action.id,
      status: 'in_progress',
      title: 'Action: github__create_issue',
    });
    expect(cards.awaiting(3, 'other', true)).toBeUndefined();
    // A run that ends while a card is pending marks it failed, like one in progress.
    cards.awaiting(2, 'github__create_issue', true);
    expect(cards.unfinished()).toEqual([expect.objectContaining({ id: action.id, status: 'error' })]);
  });
});
