import {
  type Arrival,
  PLACE_KEPT,
  type QueueOutcome,
  type QueueWaitObserver,
  type RunQueue,
  type RunQueueLimits,
} from '../ports/run-queue.js';
import { createDeduper } from './delivery-dedupe.js';

export type { QueueOutcome, RunQueue, RunQueueLimits } from '../ports/run-queue.js';

/** Deliveries admitted once, in this process's memory; the line is the order of `run` calls, which follow arrivals. */
export function createLocalArrivals(): Pick<RunQueue, 'arrive'> {
  const deduper = createDeduper();
  let arrivals = 0;
  return {
    async arrive(_key, _platform, deliveries): Promise<Arrival | undefined> {
      if (!deduper.firstTime(...deliveries)) return undefined;
      return { id: ++arrivals, placed: () => undefined, leave: () => undefined };
    },
  };
}

interface Job {
  /** `waiting`: behind another task of its key; `ready`: first of its key, waiting for a slot. */
  state: 'waiting' | 'ready' | 'running';
  start(): void;
}

/**
 * Creates the in-process run queue (one process, e.g. on SQLite): the line lives in memory, and so does the
 * record of deliveries seen. `onWait` is told each task's wait.
 */
export function createRunQueue(limits: RunQueueLimits, onWait?: QueueWaitObserver): RunQueue {
  const { arrive } = createLocalArrivals();
  const lanes = new Map<string, Job[]>(); // per key, in arrival order; lanes[k][0] is ready or running
  const ready: Job[] = []; // first jobs of their keys, in the order they became first
  let active = 0;
  let idleWaiters: (() => void)[] = [];

  function pump(): void {
    while (active < limits.MAX_CONCURRENT_RUNS) {
      const job = ready.shift();
      if (!job) break;
      job.state = 'running';
      active++;
      job.start();
    }
  }

  function promoteNext(key: string, lane: Job[]): void {
    const next = lane[0];
    if (!next) {
      lanes.delete(key);
    } else if (next.state === 'waiting') {
      next.state = 'ready';
      ready.push(next);
    }
  }

  function settle(): void {
    pump();
    if (active === 0 && lanes.size === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  return {
    arrive,
    run<T>(
      key: string,
      task: (placeLost: AbortSignal) => Promise<T>,
      signal?: AbortSignal,
    ): Promise<QueueOutcome<T>> {
      if (signal?.aborted) return Promise.resolve({ status: 'cancelled' });
      const lane = lanes.get(key) ?? [];
      const wouldWait = lane.length > 0 || active >= limits.MAX_CONCURRENT_RUNS;
      const waiting = lane.filter((j) => j.state !== 'running').length;
      if (wouldWait && waiting >= limits.MAX_QUEUED_PER_CHANNEL) return Promise.resolve({ status: 'busy' });

      return new Promise<QueueOutcome<T>>((resolve, reject) => {
        const onAbort = () => {
          if (job.state === 'running') return; // the task sees the signal itself
          lane.splice(lane.indexOf(job), 1);
          if (job.state === 'ready') {
            ready.splice(ready.indexOf(job), 1);
            promoteNext(key, lane);
          } else if (lane.length === 0) {
            lanes.delete(key);
          }
          resolve({ status: 'cancelled' });
          settle();
        };
        const queuedAt = Date.now();
        const job: Job = {
          state: lane.length === 0 ? 'ready' : 'waiting',
          start() {
            signal?.removeEventListener('abort', onAbort);
            onWait?.(Date.now() - queuedAt);
            // A task that throws before returning its promise still frees its slot.
            new Promise<T>((run) => run(task(PLACE_KEPT)))
              .then((value) => resolve({ status: 'done', value }), reject)
              .finally(() => {
                active--;
                lane.shift();
                promoteNext(key, lane);
                settle();
              });
          },
        };
        lane.push(job);
        lanes.set(key, lane);
        if (job.state === 'ready') ready.push(job);
        signal?.addEventListener('abort', onAbort, { once: true });
        pump();
      });
    },
    onInterrupted: () => undefined,
    size() {
      let total = 0;
      for (const lane of lanes.values()) total += lane.length;
      return total;
    },
    waiting() {
      let total = 0;
      for (const lane of lanes.values()) for (const job of lane) if (job.state !== 'running') total++;
      return total;
    },
    idle() {
      if (active === 0 && lanes.size === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    close: async () => undefined,
  };
}
