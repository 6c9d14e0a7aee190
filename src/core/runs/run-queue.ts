/** How a queued task ended up: it ran, or it never did. */
export type QueueOutcome<T> = { status: 'done'; value: T } | { status: 'busy' } | { status: 'cancelled' };

/** Limits of the run queue, named as in the configuration. */
export interface RunQueueLimits {
  /** Tasks running at once, all keys together. */
  MAX_CONCURRENT_RUNS: number;
  /** Tasks of one key allowed to wait; one more is refused as busy. */
  MAX_QUEUED_PER_CHANNEL: number;
}

/** Runs tasks one at a time per key, in arrival order, and up to a global limit across keys. */
export interface RunQueue {
  /**
   * Runs `task` once every earlier task of `key` has finished and a slot is free. Resolves `busy` at once
   * when the key already has its maximum waiting, `cancelled` if `signal` aborts before the task starts
   * (the task then never runs). A task's rejection is passed on.
   */
  run<T>(key: string, task: () => Promise<T>, signal?: AbortSignal): Promise<QueueOutcome<T>>;
  /** Tasks running or waiting. */
  size(): number;
  /** Resolves once nothing is running or waiting. */
  idle(): Promise<void>;
}

interface Job {
  /** `waiting`: behind another task of its key; `ready`: first of its key, waiting for a slot. */
  state: 'waiting' | 'ready' | 'running';
  start(): void;
}

/** Creates a run queue with the given limits. */
export function createRunQueue(limits: RunQueueLimits): RunQueue {
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
    run<T>(key: string, task: () => Promise<T>, signal?: AbortSignal): Promise<QueueOutcome<T>> {
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
        const job: Job = {
          state: lane.length === 0 ? 'ready' : 'waiting',
          start() {
            signal?.removeEventListener('abort', onAbort);
            // A task that throws before returning its promise still frees its slot.
            new Promise<T>((run) => run(task()))
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
    size() {
      let total = 0;
      for (const lane of lanes.values()) total += lane.length;
      return total;
    },
    idle() {
      if (active === 0 && lanes.size === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
  };
}
