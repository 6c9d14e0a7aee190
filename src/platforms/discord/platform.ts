import type { PlatformEntry } from '../types.js';

/** Discord: on when DISCORD_TOKEN is set; a gateway connection, so no HTTP routes. */
export const discordPlatform: PlatformEntry = {
  name: 'discord',
  enabled: (config) => Boolean(config.DISCORD_TOKEN),
  needsHttp: () => false,
  async create(deps) {
    const { createDiscordAdapter } = await import('./create-discord-adapter.js');
    if (!deps.shards) return createDiscordAdapter(deps);
    // Replicas on Postgres: each gateway shard is connected by whichever replica holds its lease.
    const { createShardHolder } = await import('./shard-holder.js');
    return createShardHolder(deps, deps.shards, (shard) => createDiscordAdapter(deps, shard));
  },
  // An interaction's token (valid 15 minutes) is in the URL of every call that answers it.
  secretPatterns: [/(\/(?:interactions|webhooks)\/\d+\/)[\w.-]{16,}/g],
};
