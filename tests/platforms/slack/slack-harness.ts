import { createLogger } from '../../../src/core/logger.js';
import { platformCheck } from '../../../src/platforms/readiness-check.js';
import { createSlackAdapter, type SlackAdapter } from '../../../src/platforms/slack/create-slack-adapter.js';
import { createHttpServer } from '../../../src/server/http-server.js';
import type { FakeOpenAI, FakeOpenAIOptions } from '../../fakes/openai-server.js';
import {
  blockActions,
  eventCallback,
  type FakeSlack,
  type FakeSlackMessage,
  sendSigned,
  startFakeSlack,
  userTs,
  visibleText,
} from '../../fakes/slack-server.js';
import { startTestCore, type TestCore } from '../../helpers/test-core.js';

// biome-ignore lint/suspicious/noExplicitAny: Slack payloads are loose JSON.
type Json = any;

/** How the adapter receives events. */
export type SlackMode = 'http' | 'socket';

export const SIGNING_SECRET = 'test-signing-secret-0123456789';
export const BOT_TOKEN = 'xoxb-test-bot-token';
export const APP_TOKEN = 'xapp-test-app-token';
export const ALICE = 'UALICE';
/** A workspace admin (users.info says so). */
export const ADMIN = 'UADMIN';
export const CHANNEL = 'C0001';

/** What came back when an event or command was delivered. */
export interface Delivered {
  /** HTTP status (HTTP mode) or 200 once Socket Mode acked. */
  status: number;
  /** The ack's body: an HTTP response body parsed as JSON if it is JSON, or the Socket Mode ack payload. */
  ack: Json;
}

/** The real Slack adapter on the real core, wired to a fake Slack and a scripted model. */
export interface SlackHarness {
  mode: SlackMode;
  slack: FakeSlack;
  model: FakeOpenAI;
  adapter: SlackAdapter;
  /** The real core and its store. */
  core: TestCore;
  /** The shared HTTP server the adapter mounts its routes on (always listening, in both modes). */
  httpUrl: string;
  /** One entry per Slack API call answered 429, as the metrics count them. */
  rateLimits: string[];
  /** The adapter's log lines (warnings and worse unless LOG_LEVEL says otherwise), parsed. */
  logs: Json[];
  /** Delivers an `event_callback` body as Slack would in this mode, resolving once it is acked. */
  deliver(body: Json, options?: { retryNum?: number }): Promise<Delivered>;
  /** Delivers a slash command, resolving with Slack's view of the ack. */
  command(command: string, text: string, options?: { channel?: string; user?: string }): Promise<Delivered>;
  /**
   * Presses a button of one of the bot's messages as `user` (block_actions, signed or over the socket);
   * resolves once acked. Private replies land in `slack.responses`.
   */
  press(
    message: FakeSlackMessage,
    action: { type: string; action_id: string; value?: string },
    user?: string,
  ): Promise<Delivered>;
  /** Delivers any interactive payload (e.g. a `view_submission`) as Slack would in this mode. */
  interact(payload: Json): Promise<Delivered>;
  /** Waits until every event delivered so far has been handled and its answer posted. */
  settle(): Promise<void>;
  /** Moves the clock the fake Slack and the adapter share (rate windows, stream ages) forward. */
  advance(ms: number): void;
  /** Every feedback write the adapter began (votes and comments), in order. */
  feedbackWrites: Json[];
  /**
   * Stops this bot process as the root does on SIGTERM (approvals, then the adapter, which lets runs finish
   * for SHUTDOWN_GRACE_MS and cancels the rest, then the HTTP server and the core); the fake Slack stays up.
   */
  shutdown(): Promise<void>;
  /** {@link shutdown}, then the fake Slack unless it was handed in (`options.slack`). */
  close(): Promise<void>;
}

/** Options of {@link startSlackHarness}. */
export interface SlackHarnessOptions {
  /** Extra environment for the core and the adapter (strings, as in .env). */
  env?: Record<string, string>;
  model?: FakeOpenAIOptions;
  /** Scheduled questions kept, on this clock, fired when the test ticks `core.core.schedules`. */
  schedules?: { now?: () => number };
  /** Another process's fake Slack (a restarted bot, a second replica); its owner closes it. */
  slack?: FakeSlack;
  /** Another core's database (its `core.config.DATABASE_URL`): this process shares it. */
  databaseUrl?: string;
  /** How waiting tool calls are looked after (see `startTestCore`). */
  approvals?: { beatMs?: number; staleMs?: number };
}

/** Starts a fake Slack, the real core on a scripted model, and the real adapter in `mode`. */
export async function startSlackHarness(
  mode: SlackMode,
  options: SlackHarnessOptions = {},
): Promise<SlackHarness> {
  let offset = 0;
  const now = () => Date.now() + offset;
  const ownSlack = !options.slack;
  const slack =
    options.slack ??
    (await startFakeSlack({
      now,
      botToken: BOT_TOKEN,
      users: {
        [ALICE]: { name: 'alice', display_name: 'Alice' },
        [ADMIN]: { name: 'ada', display_name: 'Ada', is_admin: true },
      },
    }));
  let core: TestCore | undefined;
  try {
    core = await startTestCore(
      {
        SLACK_BOT_TOKEN: BOT_TOKEN,
        ...(mode === 'http' ? { SLACK_SIGNING_SECRET: SIGNING_SECRET } : { SLACK_APP_TOKEN: APP_TOKEN }),
        SLACK_API_URL: slack.apiUrl,
        PORT: '0',
        STREAM_EDIT_INTERVAL_MS: '5',
        ...options.env,
      },
      options.model,
      {
        ...(options.schedules ? { schedules: options.schedules } : {}),
        ...(options.approvals ? { approvals: options.approvals } : {}),
        ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
        follows: { now },
      },
    );
    const { config } = core;
    const logs: Json[] = [];
    const logger = createLogger({
      level: options.env?.LOG_LEVEL ?? 'warn',
      secrets: [],
      // Warnings and errors are kept for tests to read; nothing is printed.
      write: (line) => {
        logs.push(JSON.parse(line));
      },
    });
    const http = createHttpServer({
      logger,
      readiness: () => [platformCheck(adapter)],
    });
    const rateLimits: string[] = [];
    const feedbackWrites: Json[] = [];
    const real = core.core.assistant;
    const assistant: typeof real = Object.create(real, {
      feedback: {
        value: (entry: Parameters<typeof real.feedback>[0]) => {
          feedbackWrites.push(entry);
          return real.feedback(entry);
        },
      },
    });
    const adapter = createSlackAdapter({
      config,
      assistant,
      logger,
      http,
      rateLimited: (platform) => rateLimits.push(platform),
      now,
      follows: core.core.follows,
      knowledge: core.knowledge.channel,
    });
    const port = await http.listen(0, '127.0.0.1');
    try {
      await adapter.start();
    } catch (err) {
      await http.close();
      throw err;
    }
    const eventsUrl = () => `http://127.0.0.1:${port}/slack/events`;
    const testCore = core;
    let stopped: Promise<void> | undefined;
    const shutdown = () => {
      stopped ??= (async () => {
        try {
          await testCore.core.approvals?.stop();
          await adapter.stop();
        } finally {
          await http.close();
          await testCore.close();
        }
      })();
      return stopped;
    };
    let closed = false;
    const interact = async (payload: Json): Promise<Delivered> => {
      if (mode === 'socket') return { status: 200, ack: await slack.socket.send('interactive', payload) };
      const res = await sendSigned(
        eventsUrl(),
        { form: { payload: JSON.stringify(payload) } },
        { signingSecret: SIGNING_SECRET },
      );
      return { status: res.status, ack: parse(res.body) };
    };

    return {
      mode,
      slack,
      model: core.fake,
      adapter,
      core: testCore,
      httpUrl: `http://127.0.0.1:${port}`,
      rateLimits,
      logs,
      async deliver(body, { retryNum } = {}) {
        if (mode === 'socket') {
          const ack = await slack.socket.send(
            'events_api',
            body,
            retryNum ? { attempt: retryNum } : undefined,
          );
          return { status: 200, ack };
        }
        const res = await sendSigned(
          eventsUrl(),
          { json: body },
          { signingSecret: SIGNING_SECRET, retryNum },
        );
        return { status: res.status, ack: parse(res.body) };
      },
      async command(command, text, { channel = CHANNEL, user = ALICE } = {}) {
        const fields = {
          token: 'legacy-verification-token',
          team_id: slack.team,
          team_domain: 'fake',
          channel_id: channel,
          channel_name: 'general',
          user_id: user,
          user_name: user.toLowerCase(),
          command,
          text,
          api_app_id: 'A0001',
          is_enterprise_install: 'false',
          response_url: slack.responseUrl(),
          trigger_id: `trigger.${Date.now()}`,
        };
        if (mode === 'socket') return { status: 200, ack: await slack.socket.send('slash_commands', fields) };
        const res = await sendSigned(eventsUrl(), { form: fields }, { signingSecret: SIGNING_SECRET });
        return { status: res.status, ack: parse(res.body) };
      },
      press: (message, action, user = ALICE) =>
        interact(blockActions(message, action, { user, responseUrl: slack.responseUrl() })),
      interact,
      settle: () => adapter.idle(),
      feedbackWrites,
      advance: (ms) => {
        offset += ms;
      },
      shutdown,
      async close() {
        if (closed) return;
        closed = true;
        try {
          await shutdown();
        } finally {
          if (ownSlack) await slack.close();
        }
      },
    };
  } catch (err) {
    await core?.close();
    if (ownSlack) await slack.close();
    throw err;
  }
}

/** An `app_mention` event from `user` in `channel` (a reply in `threadTs` when given). */
export function mention(
  text: string,
  options: { channel?: string; user?: string; threadTs?: string; ts?: string; files?: Json[] } = {},
): Json {
  return {
    type: 'app_mention',
    user: options.user ?? ALICE,
    text: `<@UBOT> ${text}`,
    ts: options.ts ?? userTs(),
    channel: options.channel ?? CHANNEL,
    ...(options.threadTs ? { thread_ts: options.threadTs } : {}),
    ...(options.files ? { files: options.files } : {}),
  };
}

/** A `message` event in a DM with the bot (channel_type `im`). */
export function directMessage(text: string, options: { channel?: string; user?: string } = {}): Json {
  return {
    type: 'message',
    channel_type: 'im',
    user: options.user ?? ALICE,
    text,
    ts: userTs(),
    channel: options.channel ?? 'D0001',
  };
}

/** Delivers `event` wrapped in an event_callback, then waits for the bot to finish with it. */
export async function ask(h: SlackHarness, event: Json): Promise<Delivered> {
  const delivered = await h.deliver(eventCallback(event));
  await h.settle();
  return delivered;
}

/** The bot's messages at the top of `channel` (not in any thread), oldest first. */
export function topLevel(h: SlackHarness, channel = CHANNEL): FakeSlackMessage[] {
  return h.slack.messages.filter((m) => m.channel === channel && !m.threadTs);
}

/** The bot's replies in the thread of `threadTs`. */
export function replies(h: SlackHarness, channel: string, threadTs: string): FakeSlackMessage[] {
  return h.slack.messages.filter((m) => m.channel === channel && m.threadTs === threadTs);
}

/** What people see of several messages, one after another. */
export function seen(messages: readonly FakeSlackMessage[]): string {
  return messages.map(visibleText).join('\n');
}

function parse(body: string): Json {
  if (!body) return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}
