import { describe, expect, it } from 'vitest';
import { noticingWaits } from '../../../src/core/approvals/waiting-line.js';
import type { ApprovalWait } from '../../../src/core/ports/approval-wait-store.js';
import type { Interrupted } from '../../../src/core/ports/run-queue.js';
import { createRunQueue } from '../../../src/core/runs/run-queue.js';

describe('the line the platforms see', () => {
  it('says of an interrupted question whether a call of its run still waits for approval', async () => {
    const line = createRunQueue({ MAX_CONCURRENT_RUNS: 2, MAX_QUEUED_PER_CHANNEL: 2 });
    let registered: ((q: Interrupted) => Promise<void>) | undefined;
    // The shared (Postgres) line calls the handler for each question of a replica that died.
    line.onInterrupted = (_platform, handler) => {
      registered = handler;
    };
    const counts: Record<string, number> = { 'slack:T1:C1': 1 };
    const seen: Interrupted[] = [];
    const wrapped = noticingWaits(line, {
      waitsIn: async (key) => {
        if (key === 'broken') throw new Error('database down');
        return Array.from({ length: counts[key] ?? 0 }, () => ({}) as ApprovalWait);
      },
    });
    wrapped.onInterrupted('slack', async (q) => void seen.push(q));
    await registered?.({ where: { ts: '1' }, key: 'slack:T1:C1' });
    await registered?.({ where: { ts: '2' }, key: 'slack:T1:C2' });
    await registered?.({ where: { ts: '3' }, key: 'broken' });
    await registered?.({ where: { ts: '4' } });
    expect(seen.map((q) => q.waitingApproval)).toEqual([true, false, false, false]);
    expect(seen[0]?.where).toEqual({ ts: '1' });
    expect(wrapped.size()).toBe(0);
  });
});
