import { afterEach, describe, expect, it } from 'vitest';
import { StorageError } from '../../src/core/errors.js';
import type { Interrupted, RunQueue, RunQueueLimits } from '../../src/core/ports/run-queue.js';
import { createStore } from '../../src/store/create-store.js';
import { type Coordination, openCoordination } from '../../src/store/open-coordination.js';
import { lockKeys } from '../../src/store/postgres/postgres-session.js';
import { runQueueContract } from '../contract/run-queue-contract.js';
import { createGate } from '../helpers/gate.js';
import { waitUntil } from '../helpers/wait-until.js';
import { asAdmin, dropSchema, freshSchema, postgresSuite, withSchema } from './postgres-test-db.js';

const LIMITS: RunQueueLimits = { MAX_CONCURRENT_RUNS: 4, MAX_QUEUED_PER_CHANNEL: 5 };

/** Replicas' queues on one fresh schema (migrated by opening the store, as at start). */
async function openReplicas(url: string, count: number, limits = LIMITS) {
  const schema = freshSchema();
  const databaseUrl = withSchema(url, schema);
  const store = await createStore(databaseUrl);
  const replicas: Coordination[] = [];
  for (let i = 0; i < count; i++)
    replicas.push(await openCoordination(databaseUrl, { limits, sweepMs: 200 }));
  return {
    queues: replicas.map((r) => r.queue!) as RunQueue[],
    replicas,
    databaseUrl,
    async cleanup() {
      for (const r of replicas) await r.close();
      await store.close();
      await dropSchema(url, schema);
    },
  };
}

postgresSuite('Postgres run queue', (url) => {
  runQueueContract('Postgres', async (limits) => {
    const { queues, cleanup } = await openReplicas(url, 1, limits);
    return { queue: queues[0]!, cleanup };
  });

  describe('shared by replicas', () => {
    let cleanup: (() => Promise<void>) | undefined;
    afterEach(async () => {
      await cleanup?.();
      cleanup = undefined;
    });

    it('admits a delivery sent to every replica at once exactly once', async () => {
      const opened = await openReplicas(url, 3);
      cleanup = opened.cleanup;
      for (let n = 0; n < 10; n++) {
        const admitted = await Promise.all(
          opened.queues.map((q) => q.arrive('k', 'test', [`message:${n}`, `event:${n}`])),
        );
        expect(admitted.filter(Boolean)).toHaveLength(1);
        for (const a of admitted) a?.leave();
      }
    });

    it('runs one channel’s questions in arrival order, one at a time, whichever replica took each', async () => {
      const opened = await openReplicas(url, 3, { ...LIMITS, MAX_QUEUED_PER_CHANNEL: 10 });
      cleanup = opened.cleanup;
      const { queues } = opened;
      const arrivals = [];
      for (let i = 0; i < 9; i++)
        arrivals.push({
          queue: queues[i % 3]!,
          arrival: await queues[i % 3]!.arrive('k', 'test', [`d${i}`]),
        });
      const log: string[] = [];
      let running = 0;
      // Run in reverse: each replica asks for its turn late, yet each goes in arrival order.
      const runs = arrivals
        .map(({ queue, arrival }, i) =>
          queue.run(
            'k',
            async () => {
              running++;
              log.push(`${i}${running > 1 ? ' overlapping' : ''}`);
              await new Promise((r) => setTimeout(r, 5));
              running--;
            },
            undefined,
            arrival,
          ),
        )
        .reverse();
      for (const outcome of await Promise.all(runs)) expect(outcome.status).toBe('done');
      expect(log).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8']);
    });

    it('tells a running task its place is lost when its replica loses the held connection', async () => {
      const opened = await openReplicas(url, 1, { ...LIMITS, MAX_CONCURRENT_RUNS: 16 });
      cleanup = opened.cleanup;
      const queue = opened.queues[0]!;
      const schema = new URL(opened.databaseUrl).searchParams.get('schema');
      const warnings: string[] = [];
      const onWarning = (w: Error) => warnings.push(w.name);
      process.on('warning', onWarning);
      // Sixteen channels answering at once, each task listening to its place.
      let started = 0;
      const runs = Array.from({ length: 16 }, (_, i) =>
        queue.run(`k${i}`, (placeLost) => {
          started++;
          return new Promise<unknown>((resolve) =>
            placeLost.addEventListener('abort', () => resolve(placeLost.reason), { once: true }),
          );
        }),
      );
      await waitUntil(() => started === 16, { what: 'the tasks to start' });
      // Postgres ends the replica's held session (a network cut, a failover): its liveness lock goes.
      const [liveness] = lockKeys(schema!, 'replica', '');
      const ended = await asAdmin(url, (c) =>
        c.query(
          `SELECT pg_terminate_backend(pid) FROM pg_locks
           WHERE locktype = 'advisory' AND classid::bigint = $1 AND granted`,
          [liveness],
        ),
      );
      expect(ended.rowCount).toBeGreaterThan(0);
      for (const outcome of await Promise.all(runs)) {
        expect(outcome.status).toBe('done');
        expect((outcome as { value: unknown }).value).toBeInstanceOf(StorageError);
      }
      process.off('warning', onWarning);
      expect(warnings).not.toContain('MaxListenersExceededWarning');
      // Once reconnected, tasks get a fresh signal.
      await waitUntil(() => opened.replicas[0]!.health() === undefined, { what: 'the session to reconnect' });
      expect(await queue.run('k2', async (placeLost) => placeLost.aborted)).toEqual({
        status: 'done',
        value: false,
      });
    });

    it('frees a dead replica’s channel and says where its answer was interrupted', async () => {
      const opened = await openReplicas(url, 2);
      cleanup = opened.cleanup;
      const [dying, survivor] = opened.queues as [RunQueue, RunQueue];
      const interrupted: Interrupted[] = [];
      survivor.onInterrupted('test', async (q) => void interrupted.push(q));
      const first = await dying.arrive('k', 'test', ['d1']);
      const hang = createGate();
      let started = false;
      void dying.run(
        'k',
        async () => {
          started = true;
          await hang.promise;
        },
        undefined,
        first,
      );
      await waitUntil(() => started, { what: 'the first question to start' });
      first!.placed({ channel: 'C1', ts: '1.0' });
      const second = await survivor.arrive('k', 'test', ['d2']);
      const answered = survivor.run('k', async () => 'second answered', undefined, second);
      // The dying replica's connections go, as with kill -9: Postgres frees its locks.
      await waitUntil(() => survivor.waiting() === 1, { what: 'the second question to wait its turn' });
      await opened.replicas[0]!.close();
      expect(await answered).toEqual({ status: 'done', value: 'second answered' });
      await waitUntil(() => interrupted.length === 1, { what: 'the interrupted notice' });
      expect(interrupted[0]!.where).toEqual({ channel: 'C1', ts: '1.0' });
      hang.open();
    });
  });
});
