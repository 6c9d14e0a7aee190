import { createLogger } from '../../../src/core/logger.js';
import type { RunQueue } from '../../../src/core/ports/run-queue.js';
import type { Store } from '../../../src/core/ports/store.js';
import {
  createDiscordAdapter,
  type DiscordAdapter,
} from '../../../src/platforms/discord/create-discord-adapter.js';
import type { AdapterHarness, VisibleExchange } from '../../contract/adapter-contract.js';
import {
  type FakeDiscord,
  type FakeDiscordOptions,
  type FakeMessage,
  type FakeUser,
  startFakeDiscord,
} from '../../fakes/discord-server.js';
import type { FakeOpenAI, FakeOpenAIOptions } from '../../fakes/openai-server.js';
import { startTestCore, type TestCore } from '../../helpers/test-core.js';

/** The real adapter and core, wired to a fake Discord and a scripted model. */
export interface DiscordBed {
  discord: FakeDiscord;
  model: FakeOpenAI;
  test: TestCore;
  adapter: DiscordAdapter;
  /** A person in the guild (each bed makes its own, also on a shared `fake`: use the first bed's there). */
  alice: FakeUser;
  /** Sends a message as `author` (default alice), mentioning the bot unless `mention: false`; waits for the bot. */
  say(content: string, options?: SayOptions): Promise<FakeMessage>;
  /** Runs a slash command as alice and waits for the bot; returns the interaction token. */
  command(
    name: string,
    options?: {
      channelId?: string;
      question?: string;
      nick?: string;
      roles?: string[];
      subcommand?: string;
      values?: Record<string, string>;
      user?: FakeUser;
    },
  ): Promise<string>;
  /** Waits until the bot has read every event sent so far and finished handling them. */
  settle(): Promise<void>;
  /** Stops the adapter and starts a new one on the same core and fake: a restarted bot, its caches empty. */
  restart(): Promise<void>;
  /** The bot's reply to `question` (the message referencing it). */
  replyTo(question: FakeMessage): FakeMessage;
  /**
   * Stops the bot as the root does on SIGTERM: waiting calls' sweeps stop, the adapter drains (runs still
   * going after SHUTDOWN_GRACE_MS are cancelled), the core closes. The fake (and the database of
   * `databaseUrl`) stay for the next process.
   */
  shutdown(): Promise<void>;
  close(): Promise<void>;
}

/** Who says something where, and what comes with it. */
export interface SayOptions {
  channelId?: string;
  mention?: boolean;
  author?: FakeUser;
  nick?: string;
  roles?: string[];
  /** The message this one replies to. */
  replyTo?: FakeMessage;
  attachments?: Parameters<FakeDiscord['sendMessage']>[0]['attachments'];
}

/** What a bed may put around the real pieces. */
export interface DiscordBedOptions {
  discord?: FakeDiscordOptions;
  /** The line the adapter admits questions through (e.g. one held by a gate); none (one process) by default. */
  line?: Pick<RunQueue, 'arrive'>;
  /** Something between the core and the real store (e.g. one whose calls a gate holds). */
  wrapStore?: (store: Store) => Store;
  /** One clock for the fake and the adapter (interaction deadlines), so tests move time instead of waiting. */
  now?: () => number;
  /** Scheduled questions kept, on this clock, fired when the test ticks `test.core.schedules`. */
  schedules?: { now?: () => number };
  /** A fake Discord already running (another process of the same bot); `close` leaves it running. */
  fake?: FakeDiscord;
  /** The database (another process's); a fresh SQLite file in the core's temp folder when unset. */
  databaseUrl?: string;
  /** How waiting tool calls are looked after (see `startTestCore`). */
  approvals?: { beatMs?: number; staleMs?: number };
  /** How the scripted model answers what is not scripted (e.g. a `fallback` responder). */
  model?: FakeOpenAIOptions;
  /** How long a lone forward in a DM waits for its comment (the adapter's default when unset). */
  forwardCommentMs?: number;
}

/** Starts a fake Discord, the real core, and the adapter (connected and with its commands registered). */
export async function startDiscordBed(
  env: Record<string, string> = {},
  options: DiscordBedOptions = {},
): Promise<DiscordBed> {
  const discord =
    options.fake ??
    (await startFakeDiscord({
      ...options.discord,
      ...(options.now ? { now: options.now } : {}),
    }));
  const test = await startTestCore(
    {
      DISCORD_TOKEN: 'fake-discord-token',
      DISCORD_API_URL: discord.apiUrl,
      STREAM_EDIT_INTERVAL_MS: '5',
      ...env,
    },
    options.model ?? {},
    {
      ...(options.wrapStore ? { wrapStore: options.wrapStore } : {}),
      ...(options.schedules ? { schedules: options.schedules } : {}),
      ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
      ...(options.approvals ? { approvals: options.approvals } : {}),
      ...(options.now ? { follows: { now: options.now } } : {}),
    },
  );
  const logger = createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent', secrets: [] });
  const connect = async () => {
    const started = createDiscordAdapter({
      config: test.config,
      assistant: test.core.assistant,
      logger,
      line: options.line,
      now: options.now,
      forwardCommentMs: options.forwardCommentMs,
      follows: test.core.follows,
      knowledge: test.knowledge.channel,
    });
    await started.start();
    return started;
  };
  let adapter = await connect();
  const alice = discord.user('alice');
  // Events are handled in gateway order, so once a later probe command is answered, earlier events were read.
  const prober = discord.user('prober');
  const probeChannel = discord.addDm(prober);

  const settle = async () => {
    const probe = discord.runCommand({ name: 'probe', channelId: probeChannel, user: prober });
    await discord.waitForCall((c) => c.path.startsWith(`/interactions/${probe.id}/`));
    await adapter.idle();
  };

  let down: Promise<void> | undefined;
  const shutdown = () => {
    down ??= (async () => {
      await test.core.approvals?.stop();
      await adapter.stop();
      await test.close();
    })();
    return down;
  };

  return {
    discord,
    model: test.fake,
    test,
    get adapter() {
      return adapter;
    },
    alice,
    settle,
    async restart() {
      await adapter.stop();
      adapter = await connect();
    },
    async say(content, options = {}) {
      const mention = options.mention ?? true;
      const message = discord.sendMessage({
        channelId: options.channelId ?? discord.channelId,
        author: options.author ?? alice,
        content: mention ? `<@${discord.bot.id}> ${content}` : content,
        mentions: mention ? [discord.bot] : [],
        nick: options.nick,
        roles: options.roles,
        replyTo: options.replyTo,
        attachments: options.attachments,
      });
      await settle();
      return message;
    },
    async command(name, options = {}) {
      const { token } = discord.runCommand({
        name,
        channelId: options.channelId ?? discord.channelId,
        user: options.user ?? alice,
        subcommand: options.subcommand,
        options: options.question === undefined ? (options.values ?? {}) : { question: options.question },
        nick: options.nick,
        roles: options.roles,
      });
      await settle();
      return token;
    },
    replyTo(question) {
      const reply = discord
        .messages(question.channel_id)
        .find((m) => m.message_reference?.message_id === question.id);
      if (!reply) throw new Error(`the bot did not reply to "${question.content}"`);
      return reply;
    },
    shutdown,
    async close() {
      await shutdown();
      if (!options.fake) await discord.close();
    },
  };
}

/** The adapter contract's view of Discord: conversation names map to text channels. */
export async function discordContractHarness(env: Record<string, string> = {}): Promise<AdapterHarness> {
  const bed = await startDiscordBed(env);
  const channels = new Map<string, string>([['a', bed.discord.channelId]]);
  const channelOf = (conversation = 'a') => {
    if (!channels.has(conversation)) channels.set(conversation, bed.discord.addChannel(conversation));
    return channels.get(conversation)!;
  };
  const ephemeral = async (name: string, conversation?: string) => {
    const token = await bed.command(name, { channelId: channelOf(conversation) });
    return bed.discord.original(token)?.content ?? '';
  };
  return {
    model: bed.model,
    async ask(text, conversation): Promise<VisibleExchange> {
      const question = await bed.say(text, { channelId: channelOf(conversation) });
      const reply = bed.replyTo(question);
      // The reasoning thread is started from the reply, so it shares the reply's id.
      const steps = bed.discord.messages(reply.id).map((m) => m.content);
      return { answer: reply.content, steps: steps.join('\n') };
    },
    reset: (conversation) => ephemeral('reset', conversation),
    memory: (conversation) => ephemeral('memory', conversation),
    usage: (conversation) => ephemeral('usage', conversation),
    tools: (conversation) => ephemeral('tools', conversation),
    close: () => bed.close(),
  };
}
