import { afterEach, describe, expect, it } from 'vitest';
import type { Arrival, RunQueue, RunQueueLimits } from '../../src/core/ports/run-queue.js';
import { createGate } from '../helpers/gate.js';
import { waitUntil } from '../helpers/wait-until.js';

/** A queue to test, and how to dispose of it. */
export interface RunQueueFixture {
  queue: RunQueue;
  cleanup(): Promise<void>;
}

/** What every RunQueue does, whether the line lives in memory or is shared by replicas. */
export function runQueueContract(
  name: string,
  open: (limits: RunQueueLimits) => Promise<RunQueueFixture>,
): void {
  describe(`run queue contract: ${name}`, () => {
    let fixture: RunQueueFixture | undefined;
    const make = async (limits: Partial<RunQueueLimits> = {}) => {
      fixture = await open({ MAX_CONCURRENT_RUNS: 4, MAX_QUEUED_PER_CHANNEL: 5, ...limits });
      return fixture.queue;
    };
    afterEach(async () => {
      await fixture?.cleanup();
      fixture = undefined;
    });

    it('admits a delivery once, whichever of its ids comes again', async () => {
      const queue = await make();
      const first = await queue.arrive('k', 'test', ['message:1', 'event:1']);
      expect(first).toBeDefined();
      expect(await queue.arrive('k', 'test', ['message:1', 'event:1'])).toBeUndefined();
      expect(await queue.arrive('k', 'test', ['message:1', 'event:2'])).toBeUndefined();
      const second = await queue.arrive('k', 'test', ['message:2']);
      expect(second!.id).toBeGreaterThan(first!.id);
      first!.leave();
      second!.leave();
    });

    it('runs one key’s questions one at a time, in arrival order, each after the previous ended', async () => {
      const queue = await make();
      const log: string[] = [];
      const gates = [createGate(), createGate(), createGate()];
      const arrivals: (Arrival | undefined)[] = [];
      for (let i = 0; i < 3; i++) arrivals.push(await queue.arrive('k', 'test', [`d${i}`]));
      const runs = gates.map((g, i) =>
        queue.run(
          'k',
          async () => {
            log.push(`start ${i}`);
            await g.promise;
            log.push(`end ${i}`);
            return i;
          },
          undefined,
          arrivals[i],
        ),
      );
      await waitUntil(() => log.length === 1, { what: 'the first question to start' });
      gates[0]!.open();
      await waitUntil(() => log.length === 3, { what: 'the second question to start' });
      gates[1]!.open();
      gates[2]!.open();
      expect(await Promise.all(runs)).toEqual([0, 1, 2].map((value) => ({ status: 'done', value })));
      expect(log).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2']);
    });

    it('runs different keys side by side', async () => {
      const queue = await make();
      const gate = createGate();
      const started: string[] = [];
      const runs = ['a', 'b'].map((key) =>
        queue.run(key, async () => {
          started.push(key);
          await gate.promise;
        }),
      );
      await waitUntil(() => started.length === 2, { what: 'both keys to start' });
      gate.open();
      await Promise.all(runs);
    });

    it('refuses as busy past MAX_QUEUED_PER_CHANNEL waiting, and a cancelled question never runs', async () => {
      const queue = await make({ MAX_QUEUED_PER_CHANNEL: 1 });
      const gate = createGate();
      const ran: string[] = [];
      const task = (name: string) => async () => {
        ran.push(name);
        await gate.promise;
      };
      const first = queue.run('k', task('first'));
      await waitUntil(() => ran.length === 1, { what: 'the first question to start' });
      const abort = new AbortController();
      const second = queue.run('k', task('second'), abort.signal);
      await waitUntil(() => queue.waiting() === 1, { what: 'the second question to wait' });
      expect(await queue.run('k', task('third'))).toEqual({ status: 'busy' });
      abort.abort();
      expect(await second).toEqual({ status: 'cancelled' });
      gate.open();
      await first;
      expect(await queue.run('k', task('fourth'))).toEqual({ status: 'done', value: undefined });
      expect(ran).toEqual(['first', 'fourth']);
      await queue.idle();
      expect(queue.size()).toBe(0);
    });

    it('passes a task’s rejection on, and the line goes on', async () => {
      const queue = await make();
      await expect(queue.run('k', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
      expect(await queue.run('k', async () => 'next')).toEqual({ status: 'done', value: 'next' });
    });
  });
}
