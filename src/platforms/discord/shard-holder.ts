import { DiscordAPIError, HTTPError, REST, Routes } from 'discord.js';
import { ConfigError } from '../../core/errors.js';
import type { Interrupted } from '../../core/ports/run-queue.js';
import type { ShardLeases } from '../shard-leases.js';
import { WORDING } from '../shared/wording.js';
import type { PlatformDeps } from '../types.js';
import type { DiscordAdapter } from './create-discord-adapter.js';

/** How often a replica tries to take shards nobody holds (a dead holder's lease is free at once). */
export const SHARD_RETRY_MS = 3000;

/**
 * Discord on several replicas: a gateway shard is connected only by the replica holding its lease (two
 * sessions on one shard would both receive, and answer, every message). Each replica takes up to its fair
 * share of DISCORD_SHARD_COUNT shards and retries every SHARD_RETRY_MS, so when a holder dies another
 * takes its shards over within seconds. A replica holding no shard is still ready: it serves HTTP and waits.
 */
export function createShardHolder(
  deps: Pick<PlatformDeps, 'config' | 'logger' | 'line'>,
  leases: ShardLeases,
  connect: (shard: { id: number; count: number }) => DiscordAdapter,
): DiscordAdapter {
  const count = deps.config.DISCORD_SHARD_COUNT;
  const logger = deps.logger.child({ platform: 'discord' });
  const held = new Map<number, DiscordAdapter>();
  // Replicas start looking at different shards, so they do not all contend for shard 0 first.
  const offset = Math.floor(Math.random() * count);
  let timer: NodeJS.Timeout | undefined;
  // Any replica may find a dead one's questions, holding a shard or not: it edits their placeholders over REST.
  const rest = new REST({ api: deps.config.DISCORD_API_URL }).setToken(deps.config.DISCORD_TOKEN ?? '');
  deps.line?.onInterrupted('discord', ({ where, waitingApproval }: Interrupted) =>
    sayInterrupted(rest, where, waitingApproval ? WORDING.restartedWaiting : WORDING.interrupted),
  );
  let stopped = false;
  let started = false;

  const letGo = (shard: number, adapter: DiscordAdapter) => {
    held.delete(shard);
    return adapter.stop().catch((err: unknown) => logger.warn({ err, shard }, 'could not stop a shard'));
  };

  /**
   * Takes free shards up to this replica's share and connects them; a ConfigError (bad token) is thrown. A
   * replica holding more than its share (it started first, or others joined) gives the rest back.
   */
  const claim = async () => {
    await leases.join();
    const share = Math.ceil(count / (await leases.replicas()));
    for (const [shard, adapter] of [...held].slice(share)) {
      logger.info({ shard, count }, 'giving a Discord shard back to share them out');
      await letGo(shard, adapter);
      await leases.release(shard);
    }
    for (let i = 0; i < count && held.size < share && !stopped; i++) {
      const shard = (offset + i) % count;
      if (held.has(shard) || !(await leases.tryTake(shard))) continue;
      const adapter = connect({ id: shard, count });
      held.set(shard, adapter);
      logger.info({ shard, count }, 'holding a Discord shard; connecting');
      try {
        await adapter.start();
      } catch (err) {
        await letGo(shard, adapter);
        await leases.release(shard).catch(() => undefined);
        throw err;
      }
    }
  };
  const loop = () => {
    timer = setTimeout(() => {
      claim()
        .catch((err: unknown) => logger.warn({ err }, 'could not take a Discord shard; retrying'))
        .finally(() => {
          if (!stopped) loop();
        });
    }, SHARD_RETRY_MS);
    timer.unref();
  };
  // Every lease went with the held connection: another replica may connect these shards any moment now.
  leases.onLost(() => {
    if (held.size === 0) return;
    logger.warn('lost the Discord shard leases with the database connection; disconnecting those shards');
    for (const [shard, adapter] of [...held]) void letGo(shard, adapter);
  });

  return {
    name: 'discord',
    async start() {
      try {
        await claim();
      } catch (err) {
        if (err instanceof ConfigError) throw err;
        logger.warn({ err }, 'could not take a Discord shard yet; retrying');
      }
      if (held.size === 0) logger.info('another replica holds the Discord gateway; standing by');
      started = true;
      loop();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await Promise.all(
        [...held].map(async ([shard, adapter]) => {
          await letGo(shard, adapter);
          await leases.release(shard).catch(() => undefined);
        }),
      );
    },
    readiness() {
      if (!started) return { ready: false, reason: 'not started' };
      for (const adapter of held.values()) {
        const readiness = adapter.readiness();
        if (!readiness.ready) return readiness;
      }
      return { ready: true };
    },
    idle: async () => {
      await Promise.all([...held.values()].map((a) => a.idle()));
    },
    // Runs nobody just asked for go by REST, which any held shard's client can reach every channel through.
    systemRuns: {
      deliver: (run) => anyShard().deliver(run),
      tell: (to, text) => anyShard().tell(to, text),
      lookUp: async (whom) => {
        const shard = anyShard();
        if (!shard.lookUp) throw new Error('this Discord connection cannot look people up');
        return shard.lookUp(whom);
      },
      ready: () => [...held.values()].some((a) => a.readiness().ready),
    },
  };

  function anyShard() {
    const adapter = [...held.values()].find((a) => a.systemRuns && a.readiness().ready);
    if (!adapter?.systemRuns) throw new Error('this replica holds no connected Discord shard');
    return adapter.systemRuns;
  }
}

/** The interrupted question's placeholder, rewritten to say so; its Stop button goes, there is nothing to stop. */
async function sayInterrupted(rest: REST, where: unknown, text: string): Promise<void> {
  const body = { content: `⚠️ ${text}`, components: [] };
  // Recorded by an older or newer version, perhaps: every field is checked before it is used.
  const placed = (where ?? {}) as {
    channelId?: unknown;
    messageId?: unknown;
    interaction?: { applicationId?: unknown; token?: unknown } | null;
  };
  if (typeof placed.channelId === 'string' && typeof placed.messageId === 'string') {
    await rest.patch(Routes.channelMessage(placed.channelId, placed.messageId), { body });
    return;
  }
  const interaction = placed.interaction;
  if (typeof interaction?.applicationId !== 'string' || typeof interaction.token !== 'string') return;
  try {
    // A slash command's response can be edited only through its webhook (no bot token), for 15 minutes.
    await rest.patch(Routes.webhookMessage(interaction.applicationId, interaction.token, '@original'), {
      body,
      auth: false,
    });
  } catch (err) {
    // The error's URL carries the interaction's token: only its status goes on.
    const status = err instanceof DiscordAPIError || err instanceof HTTPError ? ` (HTTP ${err.status})` : '';
    throw new Error(`could not edit an interrupted /ask response${status}`);
  }
}
