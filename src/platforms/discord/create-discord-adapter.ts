import { setMaxListeners } from 'node:events';
import { Client, Events, GatewayCloseCodes, GatewayIntentBits, Options, Partials } from 'discord.js';
import type { Config } from '../../config.js';
import type { Assistant } from '../../core/assistant.js';
import { ConfigError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { PlatformAdapter } from '../types.js';
import type { DiscordContext } from './answer.js';
import { registerCommands } from './commands.js';
import { handleCommand } from './handle-command.js';
import { handleMessage } from './handle-message.js';
import { NO_PINGS } from './limits.js';

/** Options of {@link createDiscordAdapter}. */
export interface DiscordAdapterOptions {
  config: Config;
  assistant: Assistant;
  logger: Logger;
  /** How long stop() lets answers in flight finish before cancelling them (default 5000 ms). */
  finishGraceMs?: number;
}

/** The Discord adapter; `idle()` lets shutdown (and tests) wait for the messages being handled. */
export interface DiscordAdapter extends PlatformAdapter {
  /** Resolves once no message or command is being handled. */
  idle(): Promise<void>;
}

/** How long stop() waits for cancelled runs to show their last message before disconnecting. */
const CANCEL_GRACE_MS = 3000;

/**
 * Serves the assistant on Discord: mentions and DMs are questions, `/ask`, `/reset` and `/memory` are
 * slash commands (registered at start), and every handler is isolated so one bad event never takes the
 * process down.
 */
export function createDiscordAdapter(options: DiscordAdapterOptions): DiscordAdapter {
  const { config, assistant } = options;
  const logger = options.logger.child({ platform: 'discord' });
  const cancel = new AbortController();
  // Every run and queued question listens to this one signal.
  setMaxListeners(0, cancel.signal);
  let accepting = true;
  const ctx: DiscordContext = {
    assistant,
    logger,
    intervalMs: config.STREAM_EDIT_INTERVAL_MS,
    signal: cancel.signal,
  };
  const inFlight = new Set<Promise<void>>();
  let client: Client | undefined;

  /** Runs a handler detached from the event emitter, logging instead of crashing. */
  const track = (what: string, handler: () => Promise<void>) => {
    if (!accepting) return;
    const task: Promise<void> = handler()
      .catch((err: unknown) => logger.error({ err, what }, 'a Discord event handler failed'))
      .finally(() => inFlight.delete(task));
    inFlight.add(task);
  };

  const idle = async () => {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  };

  return {
    name: 'discord',
    idle,
    async start() {
      const token = config.DISCORD_TOKEN;
      if (!token) throw new ConfigError(['DISCORD_TOKEN: required to connect to Discord.']);
      const bot = new Client({
        intents: [
          GatewayIntentBits.Guilds,
          GatewayIntentBits.GuildMessages,
          GatewayIntentBits.MessageContent,
          GatewayIntentBits.DirectMessages,
        ],
        // DM channels are not cached before their first message arrives.
        partials: [Partials.Channel],
        allowedMentions: NO_PINGS,
        failIfNotExists: false,
        rest: { api: config.DISCORD_API_URL },
        makeCache: Options.cacheWithLimits({ ...Options.DefaultMakeCacheSettings, MessageManager: 20 }),
      });
      client = bot;
      bot.on(Events.MessageCreate, (message) => track('message', () => handleMessage(message, ctx)));
      bot.on(Events.InteractionCreate, (interaction) => {
        if (interaction.isChatInputCommand()) track('command', () => handleCommand(interaction, ctx));
      });
      bot.on(Events.Error, (err) => logger.error({ err }, 'Discord client error'));
      bot.on(Events.Warn, (message) => logger.warn(message));
      bot.rest.on('rateLimited', (info) =>
        logger.debug({ route: info.route, retryAfter: info.retryAfter }, 'Discord rate limit; waiting'),
      );

      // discord.js reconnects by itself; it gives up only on codes that need a fix (token, intents).
      bot.on(Events.ShardDisconnect, (event) => {
        if (accepting) logger.error({ code: event.code }, 'Discord closed the connection for good');
      });

      let giveUp: (event: { code: number }) => void = () => {};
      try {
        await new Promise<void>((resolve, reject) => {
          giveUp = (event) => reject(loginError(event.code));
          bot.once(Events.ClientReady, () => resolve());
          bot.once(Events.ShardDisconnect, giveUp);
          bot.login(token).catch((err: unknown) => reject(loginError(err)));
        });
      } catch (err) {
        await bot.destroy();
        client = undefined;
        throw err;
      } finally {
        bot.off(Events.ShardDisconnect, giveUp);
      }
      const ready = bot as Client<true>;
      logger.info({ user: ready.user.tag }, 'connected to Discord');
      try {
        await registerCommands(ready, config.DISCORD_GUILD_ID);
        logger.info({ guild: config.DISCORD_GUILD_ID ?? 'global' }, 'registered slash commands');
      } catch (err) {
        // Mentions and DMs still work without the commands.
        logger.error(
          { err },
          'could not register slash commands (is the applications.commands scope granted?)',
        );
      }
    },
    async stop() {
      // Take no new questions, let answers in flight finish for a moment, then cancel what is left
      // (each says so where its answer would have been) and disconnect.
      accepting = false;
      await within(idle(), options.finishGraceMs ?? 5000);
      cancel.abort();
      await within(idle(), CANCEL_GRACE_MS);
      await client?.destroy();
      client = undefined;
    },
  };
}

/** Waits for `work`, but no longer than `ms`. */
async function within(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** A login failure explained in terms of what to change. */
function loginError(reason: unknown): Error {
  const code = typeof reason === 'number' ? reason : (reason as { code?: unknown })?.code;
  if (code === 'TokenInvalid' || code === GatewayCloseCodes.AuthenticationFailed) {
    return new ConfigError(['DISCORD_TOKEN: Discord rejected the token; copy it again from the Bot page.']);
  }
  if (code === GatewayCloseCodes.DisallowedIntents) {
    return new ConfigError([
      'DISCORD_TOKEN: the bot needs the Message Content intent; enable it on the Bot page of the developer portal.',
    ]);
  }
  return reason instanceof Error ? reason : new Error(`Discord disconnected (close code ${String(code)})`);
}
