import { lockKeys, type PostgresSession } from './postgres-session.js';

/** Shard leases as session advisory locks on the replica's held connection (see ShardLeases). */
export function createPostgresShardLeases(session: PostgresSession, schema: string) {
  const [shardNs] = lockKeys(schema, 'discord-shard', '');
  // Replicas running Discord hold a member lock each: replicas serving only Slack do not count.
  const [memberNs] = lockKeys(schema, 'discord-member', '');
  // Session locks count re-entries; each shard is taken at most once so one unlock frees it.
  const held = new Set<number>();
  let joined = false;
  const join = () =>
    session.query('join the Discord replicas', 'SELECT pg_advisory_lock($1, $2)', [memberNs, session.owner]);
  session.onLost(() => held.clear());
  session.onUp(() => {
    if (joined) join().catch(() => undefined);
  });
  return {
    async join(): Promise<void> {
      if (joined) return;
      await join();
      joined = true;
    },
    async tryTake(shard: number): Promise<boolean> {
      if (held.has(shard)) return true;
      const { rows } = await session.query<{ ok: boolean }>(
        'take a Discord shard',
        'SELECT pg_try_advisory_lock($1, $2) AS ok',
        [shardNs, shard],
      );
      if (rows[0]?.ok) held.add(shard);
      return held.has(shard);
    },
    async release(shard: number): Promise<void> {
      if (!held.delete(shard)) return;
      await session.query('release a Discord shard', 'SELECT pg_advisory_unlock($1, $2)', [shardNs, shard]);
    },
    async replicas(): Promise<number> {
      const { rows } = await session.query<{ n: number }>(
        'count the replicas',
        `SELECT COUNT(*)::int AS n FROM pg_locks
          WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND classid = $1::bigint::oid
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        [memberNs],
      );
      return Math.max(1, rows[0]?.n ?? 1);
    },
    onLost: (handler: () => void) => session.onLost(handler),
  };
}
