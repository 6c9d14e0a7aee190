import type { Logger } from '../core/logger.js';
import type { QueueWaitObserver, RunQueue, RunQueueLimits } from '../core/ports/run-queue.js';
import type { ShardLeases } from '../platforms/shard-leases.js';
import { isPostgresUrl, parsePostgresUrl } from './postgres/postgres-url.js';

/** How replicas sharing one database cooperate; all unset for SQLite (one process, everything in memory). */
export interface Coordination {
  /** The line of questions shared by the replicas. */
  queue?: RunQueue | undefined;
  /** Who holds which Discord gateway shard. */
  shards?: ShardLeases | undefined;
  /** Why this replica cannot take part right now (its held connection is down), for /readyz. */
  health(): string | undefined;
  /** Leaves the line and frees every lock this replica holds. */
  close(): Promise<void>;
}

/** What coordination is built from. */
export interface CoordinationOptions {
  limits: RunQueueLimits;
  onWait?: QueueWaitObserver | undefined;
  logger?: Logger | undefined;
  /** How often to look for questions of replicas that died (ms). */
  sweepMs?: number | undefined;
}

// Short statements only (admit, queue, count, sweep): a small pool of its own keeps them off the store's.
const POOL_SIZE = 3;

/**
 * Opens the coordination `databaseUrl` calls for: with Postgres (already migrated by the store), a held
 * session connection, a small pool, the shared run queue and the shard leases; with SQLite, nothing.
 */
export async function openCoordination(
  databaseUrl: string,
  options: CoordinationOptions,
): Promise<Coordination> {
  if (!isPostgresUrl(databaseUrl)) return { health: () => undefined, close: async () => undefined };
  // Loaded only with Postgres: a bot on SQLite need not hold the pg driver.
  const [
    { openPostgresDb },
    { createPostgresRunQueue },
    { openPostgresSession },
    { createPostgresShardLeases },
  ] = await Promise.all([
    import('./postgres/postgres-db.js'),
    import('./postgres/postgres-run-queue.js'),
    import('./postgres/postgres-session.js'),
    import('./postgres/postgres-shard-leases.js'),
  ]);
  const target = parsePostgresUrl(databaseUrl);
  const session = await openPostgresSession(target, options.logger);
  const db = openPostgresDb(target, { poolSize: POOL_SIZE, applicationName: 'thinkthread-runs' });
  const queue = createPostgresRunQueue(db, session, {
    limits: options.limits,
    onWait: options.onWait,
    logger: options.logger,
    ...(options.sweepMs ? { sweepMs: options.sweepMs } : {}),
  });
  return {
    queue,
    shards: createPostgresShardLeases(session, target.schema),
    health: () => (session.up ? undefined : 'the held database connection is down'),
    async close() {
      await queue.close();
      await session.close();
      await db.close();
    },
  };
}
