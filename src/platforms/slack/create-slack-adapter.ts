import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, type Context, HTTPReceiver, type Receiver, SocketModeReceiver } from '@slack/bolt';
import type { Config } from '../../config.js';
import type { Assistant } from '../../core/assistant.js';
import { ConfigError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { PlatformAdapter } from '../types.js';
import { createBoltLogger } from './bolt-logger.js';
import { registerCommands } from './commands.js';
import { createDeduper } from './event-dedupe.js';
import { HEALTH_PATH, healthHandler, startHealthServer } from './health.js';
import { createIntake, type Delivery, type IncomingMessage, type IntakeDeps } from './intake.js';
import { createUserNames } from './user-names.js';
import { createWork } from './work.js';

/** How long stop() lets answers in flight finish before cancelling them (each then ends with a note). */
export const STOP_GRACE_MS = 8000;

/** The Slack adapter; `port` and `idle` serve operations and tests. */
export interface SlackAdapter extends PlatformAdapter {
  readonly name: 'slack';
  /** `socket` when SLACK_APP_TOKEN is set, else `http` (events and commands at POST /slack/events). */
  readonly mode: 'http' | 'socket';
  /** The port actually listened on (events in HTTP mode, and GET /healthz), once started. */
  readonly port: number | undefined;
  /** Resolves once every event received so far has been handled, answers posted included. */
  idle(): Promise<void>;
}

/** Options of {@link createSlackAdapter}. */
export interface SlackAdapterOptions {
  config: Config;
  assistant: Assistant;
  logger: Logger;
  /** How long stop() waits for answers in flight before cancelling them; default STOP_GRACE_MS. */
  stopGraceMs?: number;
}

/**
 * The Slack adapter on the real Bolt app: HTTP mode (signed requests on PORT) or Socket Mode (when
 * SLACK_APP_TOKEN is set). Mentions, DMs and `/ask` become runs; `/reset` and `/memory` answer privately.
 */
export function createSlackAdapter(options: SlackAdapterOptions): SlackAdapter {
  const { config, assistant } = options;
  const token = config.SLACK_BOT_TOKEN;
  if (!token) throw new ConfigError(['SLACK_BOT_TOKEN: required for Slack.']);
  const mode = config.SLACK_APP_TOKEN ? 'socket' : 'http';
  const logger = options.logger.child({ platform: 'slack' });
  const boltLogger = createBoltLogger(options.logger);
  const clientOptions = { slackApiUrl: config.SLACK_API_URL };

  let connected = false;
  const health = healthHandler(() => ({ ok: mode === 'http' || connected, mode }));
  let receiver: Receiver;
  if (config.SLACK_APP_TOKEN) {
    const socket = new SocketModeReceiver({
      appToken: config.SLACK_APP_TOKEN,
      logger: boltLogger,
      // The Socket Mode client opens its connection through the Web API, so it needs the same base URL.
      installerOptions: { clientOptions },
    });
    socket.client.on('connected', () => {
      connected = true;
    });
    socket.client.on('disconnected', () => {
      connected = false;
    });
    receiver = socket;
  } else {
    if (!config.SLACK_SIGNING_SECRET) throw new ConfigError(['SLACK_SIGNING_SECRET: required in HTTP mode.']);
    receiver = new HTTPReceiver({
      signingSecret: config.SLACK_SIGNING_SECRET,
      logger: boltLogger,
      customRoutes: [{ path: HEALTH_PATH, method: ['GET'], handler: health }],
    });
  }

  const app = new App({
    token,
    receiver,
    logger: boltLogger,
    clientOptions,
    // auth.test runs in start(), so that creating the adapter touches no network and a bad token fails start.
    deferInitialization: true,
    convoStore: false,
  });

  const work = createWork((err) =>
    logger.error({ err: err instanceof Error ? err.message : String(err) }, 'slack task failed'),
  );
  // Counted from the moment the receiver hands an event over (before its ack is sent), so idle() cannot
  // miss an event that was acknowledged but not yet dispatched to a listener.
  const processEvent = app.processEvent.bind(app);
  app.processEvent = (event) => work.track(processEvent(event));

  const deps: IntakeDeps = {
    assistant,
    userNames: createUserNames(logger),
    intervalMs: config.STREAM_EDIT_INTERVAL_MS,
    logger,
    work,
    dedupe: createDeduper(),
  };
  const intake = createIntake(deps);
  const delivery = (body: { event_id?: string; team_id?: string }, context: Context): Delivery => ({
    eventId: body.event_id,
    teamId: context.teamId ?? body.team_id ?? 'unknown',
    botUserId: context.botUserId,
    retryNum: context.retryNum,
  });
  app.event('app_mention', async ({ event, body, context, client }) => {
    intake.mention(event, delivery(body, context), client);
  });
  app.event('message', async ({ event, body, context, client }) => {
    intake.message(event as IncomingMessage, delivery(body, context), client);
  });
  registerCommands(app, config, deps);
  // One bad event must never take the process down: Bolt routes listener errors here.
  app.error(async (err) => {
    logger.error({ err: err.message, code: err.code }, 'slack event failed');
  });

  let server: Server | undefined;
  let port: number | undefined;
  let stopped: Promise<void> | undefined;

  const closeHealthServer = async () => {
    if (mode === 'socket' && server?.listening) await new Promise((resolve) => server!.close(resolve));
  };

  async function stop(): Promise<void> {
    try {
      await app.stop();
    } catch (err) {
      logger.warn({ err: String(err) }, 'stopping the Slack receiver failed');
    }
    await closeHealthServer();
    // Answers in flight get a grace period; after it they are cancelled, so none is left at "Thinking…".
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), options.stopGraceMs ?? STOP_GRACE_MS);
    });
    const drained = await Promise.race([work.idle().then(() => true), graceOver]);
    clearTimeout(timer);
    if (!drained) {
      work.abort();
      await work.idle();
    }
  }

  return {
    name: 'slack',
    mode,
    get port() {
      return port;
    },
    async start() {
      await app.init(); // auth.test: a wrong token fails here, with Slack's error
      if (mode === 'socket') {
        server = await startHealthServer(config.PORT, health);
        try {
          await app.start();
        } catch (err) {
          await closeHealthServer();
          throw err;
        }
      } else {
        server = (await app.start(config.PORT)) as Server;
      }
      port = (server.address() as AddressInfo).port;
      logger.info({ mode, port }, 'slack adapter ready');
    },
    stop: () => {
      stopped ??= stop();
      return stopped;
    },
    idle: () => work.idle(),
  };
}
