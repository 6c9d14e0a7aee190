import {
  Client,
  Events,
  GatewayCloseCodes,
  GatewayIntentBits,
  MessageFlags,
  Options,
  Partials,
} from 'discord.js';
import { ConfigError } from '../../core/errors.js';
import { documentLimits } from '../shared/read-document.js';
import { createRunRegistry } from '../shared/run-registry.js';
import { trackedDelivery } from '../shared/tracked-delivery.js';
import { WORDING } from '../shared/wording.js';
import { createWorkTracker } from '../shared/work-tracker.js';
import type { PlatformAdapter, PlatformDeps } from '../types.js';
import type { DiscordContext } from './answer.js';
import { registerCommands } from './commands.js';
import { createForwardComments } from './forward-comment.js';
import { handleApprovalModal } from './handle-approval.js';
import { handleButton } from './handle-button.js';
import { handleCommand } from './handle-command.js';
import { handleMessage } from './handle-message.js';
import { NO_PINGS } from './limits.js';
import { createMessageHistory } from './message-history.js';
import { discordSystemRunDelivery } from './system-run-delivery.js';

/** The Discord adapter; `idle()` lets tests wait for the messages being handled. */
export interface DiscordAdapter extends PlatformAdapter {
  /** Resolves once no message or command is being handled. */
  idle(): Promise<void>;
}

/**
 * Serves the assistant on Discord: mentions and DMs are questions, `/ask`, `/reset` and `/memory` are
 * slash commands (registered at start), and every handler is isolated so one bad event never takes the
 * process down.
 */
export function createDiscordAdapter(
  deps: Pick<PlatformDeps, 'config' | 'assistant' | 'logger' | 'rateLimited' | 'follows' | 'knowledge'> & {
    line?: DiscordContext['line'];
    /** The clock interaction tokens are timed on; Date.now when unset (tests move it instead of waiting). */
    now?: (() => number) | undefined;
    /** How long a lone forward in a DM waits for its comment (FORWARD_COMMENT_MS when unset). */
    forwardCommentMs?: number | undefined;
  },
  shard?: { id: number; count: number },
): DiscordAdapter {
  const { config, assistant } = deps;
  const logger = deps.logger.child({ platform: 'discord', ...(shard ? { shard: shard.id } : {}) });
  const work = createWorkTracker(logger);
  let accepting = true;
  const ctx: DiscordContext = {
    assistant,
    logger,
    intervalMs: config.STREAM_EDIT_INTERVAL_MS,
    maxMessages: config.ANSWER_MAX_MESSAGES,
    componentsV2: config.DISCORD_COMPONENTS_V2,
    signal: work.signal,
    runs: createRunRegistry(),
    adminUsers: config.ADMIN_USERS,
    history: createMessageHistory({ maxMessages: config.CONTEXT_MAX_MESSAGES, logger }),
    attachmentMaxBytes: config.ATTACHMENT_MAX_BYTES,
    documents: documentLimits(config.ATTACHMENT_MAX_TOKENS, config.DOCUMENT_MAX_BYTES),
    line: deps.line,
    now: deps.now ?? Date.now,
    follows: deps.follows,
    knowledge: deps.knowledge,
    forwardComments: createForwardComments(deps.forwardCommentMs),
  };
  let client: Client | undefined;
  const track = (what: string, handler: () => Promise<void>) => {
    if (accepting) work.run(what, handler);
  };
  const systemRuns = discordSystemRunDelivery(() => client, ctx);

  return {
    name: 'discord',
    idle: () => work.idle(),
    systemRuns: trackedDelivery(systemRuns, work, () => accepting && Boolean(client?.isReady())),
    readiness: () =>
      client?.isReady() ? { ready: true } : { ready: false, reason: 'not connected to the Discord gateway' },
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
        ...(shard ? { shards: [shard.id], shardCount: shard.count } : {}),
      });
      client = bot;
      bot.on(Events.MessageCreate, (message) =>
        track('a Discord message', () => handleMessage(message, ctx)),
      );
      bot.on(Events.InteractionCreate, (interaction) => {
        // Shutting down: a press or command is still answered (Discord would say "This interaction failed"),
        // and what it would have decided stays as it is for the next start.
        if (!accepting) {
          if (interaction.isRepliable()) {
            interaction
              .reply({ content: WORDING.shuttingDown, flags: MessageFlags.Ephemeral })
              .catch((err: unknown) =>
                logger.debug({ err }, 'could not answer an interaction while stopping'),
              );
          }
          return;
        }
        if (interaction.isChatInputCommand())
          track('a Discord command', () => handleCommand(interaction, ctx));
        else if (interaction.isButton()) track('a Discord button', () => handleButton(interaction, ctx));
        else if (interaction.isModalSubmit())
          track('a Discord form', () => handleApprovalModal(interaction, ctx));
      });
      bot.on(Events.Error, (err) => logger.error({ err }, 'Discord client error'));
      bot.on(Events.Warn, (message) => logger.warn(message));
      bot.rest.on('rateLimited', (info) => {
        deps.rateLimited?.('discord');
        logger.debug({ route: info.route, retryAfter: info.retryAfter }, 'Discord rate limit; waiting');
      });

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
        await registerCommands(ready, config.DISCORD_GUILD_ID, () =>
          logger.warn(
            'Discord refused the commands for user install: the app allows only server installs (developer portal → Installation → Installation Contexts); registered them for servers only',
          ),
        );
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
      accepting = false;
      await work.drain(config.SHUTDOWN_GRACE_MS);
      await client?.destroy();
      client = undefined;
    },
  };
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
