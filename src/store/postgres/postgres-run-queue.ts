import { setMaxListeners } from 'node:events';
import { StorageError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type {
  Arrival,
  Interrupted,
  QueueOutcome,
  QueueWaitObserver,
  RunQueue,
  RunQueueLimits,
} from '../../core/ports/run-queue.js';
import { DEDUPE_TTL_MS } from '../../core/runs/delivery-dedupe.js';
import { createLimiter } from '../../core/util/create-limiter.js';
import type { PostgresDb } from './postgres-db.js';
import { lockKeys, type PostgresSession, RUNS_CHANNEL } from './postgres-session.js';

/** How the shared line is tuned; the defaults suit production, tests shorten them. */
export interface PostgresRunQueueOptions {
  limits: RunQueueLimits;
  onWait?: QueueWaitObserver | undefined;
  logger?: Logger | undefined;
  /** How often each replica looks for questions of replicas that died (and re-checks its waiting ones). */
  sweepMs?: number;
}

const SWEEP_MS = 2000;
/** An admitted question never asked (its handler failed before asking) gives its place up after this long. */
const UNASKED_MS = 60_000;
const PRUNE_EVERY = 30; // sweeps between two prunings of old delivery ids

// The key's first question, and (only when that is ours) the channel's lock, in one round trip.
const TRY_TURN = `SELECT h.id::float8 AS head,
       CASE WHEN h.id = $2 THEN pg_try_advisory_lock($3, $4) ELSE false END AS ok
  FROM (SELECT MIN(id) AS id FROM run_inbox WHERE key = $1) h`;
// Done: the row goes, the lock is freed and the waiters are told, in one round trip.
const FINISH = `WITH d AS (DELETE FROM run_inbox WHERE id = $1)
SELECT pg_advisory_unlock($2, $3), pg_notify($4, $5)`;
// Questions whose replica's liveness lock is gone: that replica died (or lost its connection).
const SWEEP = `WITH live AS (
  SELECT objid::bigint AS owner FROM pg_locks
   WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND classid = $1::bigint::oid
     AND database = (SELECT oid FROM pg_database WHERE datname = current_database()))
DELETE FROM run_inbox WHERE owner NOT IN (SELECT owner FROM live)
RETURNING key, platform, placeholder, state`;

interface Waiter {
  wake(): void;
}

/** Said where an answer was cut short because this replica lost its place in the line. */
export const PLACE_LOST_MESSAGE =
  'The connection to the database was lost while answering, so this answer was interrupted; please ask again.';

/**
 * The line of questions shared by every replica on one Postgres database. Each question is a row of
 * `run_inbox` (ids give arrival order); a delivery id is admitted once (`run_deliveries`, INSERT … ON
 * CONFLICT DO NOTHING). A question runs when its row is its key's first and its replica holds the key's
 * session advisory lock; finishing deletes the row, frees the lock and NOTIFYs the waiters, who LISTEN on
 * the held session. A replica that dies loses its session, and with it its liveness lock: the others then
 * delete its rows (every `sweepMs`) and tell each platform where to say the answer was interrupted.
 */
export function createPostgresRunQueue(
  db: PostgresDb,
  session: PostgresSession,
  options: PostgresRunQueueOptions,
): RunQueue {
  const { limits, logger } = options;
  const schema = db.target.schema;
  const [laneNs] = lockKeys(schema, 'lane', '');
  const [livenessNs] = lockKeys(schema, 'replica', '');
  const laneOf = (key: string) => lockKeys(schema, 'lane', key)[1];
  const waiters = new Map<number, Set<Waiter>>();
  const handlers = new Map<string, (question: Interrupted) => Promise<void>>();
  const arrivedAt = new WeakMap<Arrival, number>();
  // Admitted here but not yet asked or left: a place nobody will use would hold its channel up for good.
  const unasked = new Map<number, { key: string; at: number }>();
  const slots = createLimiter(limits.MAX_CONCURRENT_RUNS);
  let inFlight = 0;
  let waiting = 0;
  let idleWaiters: (() => void)[] = [];
  let sweeps = 0;

  const wakeLane = (lane: number) => {
    for (const waiter of waiters.get(lane) ?? []) waiter.wake();
  };
  session.onNotify((payload) => wakeLane(Number(payload)));
  // Tasks running when the held connection goes have lost their places: this replica's liveness lock went
  // with it, so the others delete its rows and move its channels on. Those tasks are told to stop; tasks
  // started once it is back get a fresh signal.
  const freshPlaces = () => {
    const controller = new AbortController();
    setMaxListeners(0, controller.signal); // every running task listens to it
    return controller;
  };
  let placeLost = freshPlaces();
  session.onLost(() => {
    const lost = placeLost;
    placeLost = freshPlaces();
    lost.abort(new StorageError(PLACE_LOST_MESSAGE));
  });
  // Notifications sent while the connection was down are lost: every waiter looks again.
  session.onUp(() => {
    for (const lane of waiters.keys()) wakeLane(lane);
  });

  /** A promise that settles on the lane's next notification, an abort, or after `ms`; armed before checking. */
  const arm = (lane: number, signal: AbortSignal | undefined, ms: number) => {
    let waiter!: Waiter;
    let timer: NodeJS.Timeout | undefined;
    const woken = new Promise<void>((resolve) => {
      waiter = { wake: resolve };
      timer = setTimeout(resolve, ms);
      signal?.addEventListener('abort', () => resolve(), { once: true });
    });
    const set = waiters.get(lane) ?? new Set();
    set.add(waiter);
    waiters.set(lane, set);
    return {
      woken,
      disarm() {
        clearTimeout(timer);
        set.delete(waiter);
        if (set.size === 0) waiters.delete(lane);
      },
    };
  };

  const newArrival = (key: string, id: number, at: number): Arrival => {
    const arrival: Arrival = {
      id,
      placed(where) {
        db.query('record where a question is shown', 'UPDATE run_inbox SET placeholder = $1 WHERE id = $2', [
          JSON.stringify(where),
          id,
        ]).catch((err: unknown) => logger?.warn({ err }, 'could not record where a question is shown'));
      },
      leave: () => {
        unasked.delete(id);
        void leave(id, laneOf(key));
      },
    };
    arrivedAt.set(arrival, at);
    return arrival;
  };

  // Without the held session this replica has no liveness lock: a row it queued would be swept as a dead one's.
  const checkSession = () => {
    if (!session.up) throw new StorageError('The held connection to the database is down; reconnecting');
  };

  const enqueue = async (key: string, platform: string): Promise<Arrival> => {
    checkSession();
    const at = Date.now();
    const { rows } = await db.query<{ id: number }>(
      'queue a question',
      'INSERT INTO run_inbox (key, platform, owner, arrived_at) VALUES ($1, $2, $3, $4) RETURNING id',
      [key, platform, session.owner, at],
    );
    return newArrival(key, rows[0]!.id, at);
  };

  const leave = (id: number, lane: number) =>
    db
      .query('leave the line', 'WITH d AS (DELETE FROM run_inbox WHERE id = $1) SELECT pg_notify($2, $3)', [
        id,
        RUNS_CHANNEL,
        `${schema}:${lane}`,
      ])
      .catch((err: unknown) => logger?.warn({ err }, 'could not leave the line; the sweep will'));

  const finish = async (id: number, lane: number) => {
    try {
      await session.query('end a run', FINISH, [id, laneNs, lane, RUNS_CHANNEL, `${schema}:${lane}`]);
    } catch {
      // The held connection is down, and the lock with it: the row still has to go.
      await leave(id, lane);
    }
    wakeLane(lane);
  };

  /** Waits until the row is its key's first and this replica holds the key's lock. */
  const awaitTurn = async (key: string, id: number, lane: number, signal?: AbortSignal) => {
    const sweepMs = options.sweepMs ?? SWEEP_MS;
    for (;;) {
      if (signal?.aborted) return 'cancelled';
      const armed = arm(lane, signal, sweepMs);
      try {
        let turn: { head: number | null; ok: boolean } | undefined;
        try {
          turn = (
            await session.query<{ head: number | null; ok: boolean }>('wait for a turn', TRY_TURN, [
              key,
              id,
              laneNs,
              lane,
            ])
          ).rows[0];
        } catch (err) {
          logger?.debug({ err }, 'could not check the line; trying again');
        }
        if (turn?.ok) return 'turn';
        // Our row is gone: swept while this replica's connection was down.
        if (turn && (turn.head === null || turn.head > id)) return 'lost';
        await armed.woken;
      } finally {
        armed.disarm();
      }
    }
  };

  const settle = () => {
    if (inFlight > 0) return;
    const resolve = idleWaiters;
    idleWaiters = [];
    for (const r of resolve) r();
  };

  const sweep = async () => {
    const now = Date.now();
    for (const [id, { key, at }] of unasked) {
      if (now - at < UNASKED_MS) continue;
      unasked.delete(id);
      logger?.warn({ key }, 'a question was admitted but never asked; giving its place up');
      await leave(id, laneOf(key));
    }
    if (!session.up) return;
    try {
      const { rows } = await db.query<{ key: string; platform: string; placeholder: unknown; state: string }>(
        'look for interrupted questions',
        SWEEP,
        [livenessNs],
      );
      if (rows.length > 0) {
        const lanes = [...new Set(rows.map((r) => `${schema}:${laneOf(r.key)}`))];
        await db.query('free interrupted channels', 'SELECT pg_notify($1, l) FROM unnest($2::text[]) l', [
          RUNS_CHANNEL,
          lanes,
        ]);
      }
      for (const row of rows) {
        logger?.warn(
          { key: row.key, platform: row.platform, state: row.state },
          'a replica died before answering a question; saying so in its place',
        );
        const handler = handlers.get(row.platform);
        if (handler && row.placeholder != null) {
          await handler({ where: row.placeholder, key: row.key }).catch((err: unknown) =>
            logger?.warn({ err }, 'could not say that an answer was interrupted'),
          );
        }
      }
      if (++sweeps % PRUNE_EVERY === 1) {
        await db.query('forget old deliveries', 'DELETE FROM run_deliveries WHERE seen_at < $1', [
          Date.now() - DEDUPE_TTL_MS,
        ]);
      }
    } catch (err) {
      logger?.debug({ err }, 'the sweep for interrupted questions failed; trying again');
    }
  };
  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    void sweep().finally(() => {
      sweeping = false;
    });
  }, options.sweepMs ?? SWEEP_MS);
  timer.unref();

  return {
    async arrive(key, platform, deliveries) {
      checkSession();
      const ids = [...new Set(deliveries)].sort();
      const at = Date.now();
      const id = await db.transaction('admit a delivery', async (sql) => {
        // Sorted, so two replicas admitting overlapping ids meet on the same first one: exactly one wins.
        const fresh = await sql(
          `INSERT INTO run_deliveries (delivery, seen_at) SELECT d, $2 FROM unnest($1::text[]) d
           ON CONFLICT DO NOTHING`,
          [ids, at],
        );
        if (fresh.rowCount !== ids.length) return undefined;
        const { rows } = await sql<{ id: number }>(
          'INSERT INTO run_inbox (key, platform, owner, arrived_at) VALUES ($1, $2, $3, $4) RETURNING id',
          [key, platform, session.owner, at],
        );
        return rows[0]!.id;
      });
      if (id === undefined) return undefined;
      unasked.set(id, { key, at });
      return newArrival(key, id, at);
    },

    async run<T>(
      key: string,
      task: (placeLost: AbortSignal) => Promise<T>,
      signal?: AbortSignal,
      arrival?: Arrival,
    ) {
      if (arrival) unasked.delete(arrival.id);
      if (signal?.aborted) {
        if (arrival) await leave(arrival.id, laneOf(key));
        return { status: 'cancelled' } as QueueOutcome<T>;
      }
      inFlight++;
      waiting++;
      let counted = true;
      const stopWaiting = () => {
        if (counted) waiting--;
        counted = false;
      };
      try {
        const place = arrival ?? (await enqueue(key, ''));
        const lane = laneOf(key);
        const { rows } = await db
          .query<{ ahead: number }>(
            'count the questions ahead',
            'SELECT COUNT(*)::int AS ahead FROM run_inbox WHERE key = $1 AND id < $2',
            [key, place.id],
          )
          .catch(async (err: unknown) => {
            await leave(place.id, lane);
            throw err;
          });
        if ((rows[0]?.ahead ?? 0) > limits.MAX_QUEUED_PER_CHANNEL) {
          await leave(place.id, lane);
          return { status: 'busy' } as QueueOutcome<T>;
        }
        const turn = await awaitTurn(key, place.id, lane, signal);
        if (turn === 'lost') {
          throw new StorageError('The question lost its place in line while the database was unreachable');
        }
        if (turn === 'cancelled') {
          await leave(place.id, lane);
          return { status: 'cancelled' } as QueueOutcome<T>;
        }
        try {
          // A task aborted while it waits for a slot still starts, and ends at once as cancelled.
          const value = await slots(() => {
            stopWaiting();
            options.onWait?.(Date.now() - (arrivedAt.get(place) ?? Date.now()));
            return task(placeLost.signal);
          });
          return { status: 'done', value } as QueueOutcome<T>;
        } finally {
          await finish(place.id, lane);
        }
      } finally {
        stopWaiting();
        inFlight--;
        settle();
      }
    },

    onInterrupted(platform, handler) {
      handlers.set(platform, handler);
    },
    size: () => inFlight,
    waiting: () => waiting,
    idle() {
      if (inFlight === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async close() {
      clearInterval(timer);
    },
  };
}
