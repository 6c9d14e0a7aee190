/** How a queued task ended up: it ran, or it never did. */
export type QueueOutcome<T> = { status: 'done'; value: T } | { status: 'busy' } | { status: 'cancelled' };

/** Limits of the run queue, named as in the configuration. */
export interface RunQueueLimits {
  /** Tasks running at once (per process), all keys together. */
  MAX_CONCURRENT_RUNS: number;
  /** Tasks of one key allowed to wait; one more is refused as busy. */
  MAX_QUEUED_PER_CHANNEL: number;
}

/** A question's place in its conversation's line, taken the moment it arrived. */
export interface Arrival {
  /** Grows with arrival order across every process sharing the queue. */
  readonly id: number;
  /**
   * Records where the question's placeholder is (plain JSON), so that if this process dies before answering,
   * another one can say so there.
   */
  placed(where: unknown): void;
  /** Gives the place up: the question will not be run (a refusal, a bare mention). */
  leave(): void;
}

/** Said about a question whose process died before answering it. */
export interface Interrupted {
  /** What {@link Arrival.placed} recorded; undefined when nothing was shown yet. */
  where: unknown;
  /** The conversation it was asked in. */
  key?: string | undefined;
  /** A tool call of its run still waits for approval (kept): a press goes on with it, so it need not be asked again. */
  waitingApproval?: boolean | undefined;
}

/**
 * Runs tasks one at a time per key, in arrival order, and up to a per-process limit across keys. One
 * process keeps the line in memory; several processes on one database share it.
 */
export interface RunQueue {
  /**
   * Admits a delivery once: resolves to its place in line the first time any of `deliveries` (ids such as
   * an event id) is seen, by any process sharing the queue; to undefined for a repeat.
   */
  arrive(key: string, platform: string, deliveries: readonly string[]): Promise<Arrival | undefined>;
  /**
   * Runs `task` once every earlier task of `key` has finished and a slot is free; in the place `arrival`
   * took, else at the end of the line. Resolves `busy` at once when the key already has its maximum
   * waiting, `cancelled` if `signal` aborts before the task starts (it then never runs). A task's rejection
   * is passed on; so is a StorageError when the shared line cannot be reached. `task` is given a signal
   * that aborts (with a StorageError) if the task loses its place while it runs: a shared queue whose
   * process lost its database connection, so that the other processes have moved the line on already; the
   * task must then stop, and write nothing as if it still held its place.
   */
  run<T>(
    key: string,
    task: (placeLost: AbortSignal) => Promise<T>,
    signal?: AbortSignal,
    arrival?: Arrival,
  ): Promise<QueueOutcome<T>>;
  /** Calls `handler` for each `platform` question whose process died before answering it (shared queues only). */
  onInterrupted(platform: string, handler: (question: Interrupted) => Promise<void>): void;
  /** Tasks of this process running or waiting. */
  size(): number;
  /** Tasks of this process waiting for their turn or a slot. */
  waiting(): number;
  /** Resolves once nothing of this process is running or waiting. */
  idle(): Promise<void>;
  /** Stops taking part (a shared queue frees this process's place); tasks running are not awaited. */
  close(): Promise<void>;
}

/** Told how long each task waited between being queued and starting (metrics). */
export type QueueWaitObserver = (waitedMs: number) => void;

/** The place-lost signal of a queue that cannot lose a place (one process): it never aborts. */
export const PLACE_KEPT: AbortSignal = new AbortController().signal;
