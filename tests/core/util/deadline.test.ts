import { describe, expect, it, vi } from 'vitest';
import { createDeadline } from '../../../src/core/util/deadline.js';

describe('createDeadline', () => {
  it('aborts when the time runs out, and says it expired', async () => {
    const deadline = createDeadline(10);
    await new Promise((resolve) => deadline.signal.addEventListener('abort', resolve));
    expect(deadline.expired).toBe(true);
    expect((deadline.signal.reason as Error).name).toBe('TimeoutError');
  });

  it('aborts with the parent, which is not an expiry', () => {
    const parent = new AbortController();
    const deadline = createDeadline(60_000, parent.signal);
    parent.abort(new Error('user cancelled'));
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.expired).toBe(false);
    expect((deadline.signal.reason as Error).message).toBe('user cancelled');
    deadline.dispose();
  });

  it('starts aborted under an aborted parent', () => {
    const parent = new AbortController();
    parent.abort();
    expect(createDeadline(60_000, parent.signal).signal.aborted).toBe(true);
  });

  it('after dispose, neither the timer nor the parent aborts it', () => {
    vi.useFakeTimers();
    try {
      const parent = new AbortController();
      const deadline = createDeadline(5, parent.signal);
      deadline.dispose();
      parent.abort();
      vi.advanceTimersByTime(20);
      expect(deadline.signal.aborted).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
