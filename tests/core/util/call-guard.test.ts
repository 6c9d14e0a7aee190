import { describe, expect, it, vi } from 'vitest';
import { createCallGuard } from '../../../src/core/util/call-guard.js';

describe('createCallGuard', () => {
  it('stops the call when its time is up, and says it expired; the signal aborts too', async () => {
    const guard = createCallGuard(10, new AbortController().signal, 'tool timeout');
    const signal = guard.signal;
    await expect(guard.stopped).rejects.toThrow('tool timeout after 10 ms');
    expect(guard.expired).toBe(true);
    expect(signal.aborted).toBe(true);
    guard.dispose();
  });

  it('stops the call with its parent, which is not an expiry; a signal read afterwards is already aborted', async () => {
    const parent = new AbortController();
    const guard = createCallGuard(60_000, parent.signal);
    parent.abort(new Error('run cancelled'));
    await expect(guard.stopped).rejects.toThrow('run cancelled');
    expect(guard.expired).toBe(false);
    expect(guard.signal.aborted).toBe(true);
    guard.dispose();
  });

  it('after dispose, neither the timer nor the parent stops it, and it leaves no listener on the parent', () => {
    vi.useFakeTimers();
    try {
      const parent = new AbortController();
      const added = vi.spyOn(parent.signal, 'addEventListener');
      const removed = vi.spyOn(parent.signal, 'removeEventListener');
      const guard = createCallGuard(5, parent.signal);
      guard.dispose();
      parent.abort();
      vi.advanceTimersByTime(20);
      expect(guard.expired).toBe(false);
      expect(guard.signal.aborted).toBe(false);
      expect(removed.mock.calls[0]?.[1]).toBe(added.mock.calls[0]?.[1]);
    } finally {
      vi.useRealTimers();
    }
  });
});
