/**
 * Leases on Discord gateway shards shared by replicas: a replica holds a shard's session only while it holds
 * the shard's lease, and a lease is freed when its holder dies.
 */
export interface ShardLeases {
  /** Counts this replica among those sharing the shards (until it dies or its connection breaks and comes back). */
  join(): Promise<void>;
  /** Tries to take `shard`'s lease now; true when this replica holds it (already held counts). */
  tryTake(shard: number): Promise<boolean>;
  /** Gives `shard`'s lease back. */
  release(shard: number): Promise<void>;
  /** Replicas sharing the shards right now (this one included once joined), to take a fair share. */
  replicas(): Promise<number>;
  /** Called when every lease was lost at once (the connection holding them broke). */
  onLost(handler: () => void): void;
}
