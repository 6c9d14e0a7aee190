import { App, type Context, HTTPReceiver, type Receiver, SocketModeReceiver, webApi } from '@slack/bolt';
import { ConfigError } from '../../core/errors.js';
import { createLocalArrivals } from '../../core/runs/run-queue.js';
import { documentLimits } from '../shared/read-document.js';
import { createRunRegistry } from '../shared/run-registry.js';
import { trackedDelivery } from '../shared/tracked-delivery.js';
import { createWorkTracker } from '../shared/work-tracker.js';
import type { PlatformAdapter, PlatformDeps } from '../types.js';
import { createAgentSessions } from './agent-sessions.js';
import { createAgentSurface } from './agent-surface.js';
import { registerApprovalButtons } from './approval-buttons.js';
import { createBoltLogger } from './bolt-logger.js';
import { registerCommands } from './commands.js';
import { createIntake, type Delivery, type IncomingMessage, type IntakeDeps } from './intake.js';
import { sayInterrupted } from './interrupted.js';
import { createMountedReceiver } from './mounted-receiver.js';
import { registerRunButtons } from './run-buttons.js';
import { createSessionStatuses } from './session-status.js';
import { createSessionSupport } from './session-support.js';
import { explainStartError } from './start-errors.js';
import { createStreamBudget } from './stream-budget.js';
import { createStreamingSupport } from './streaming-support.js';
import { slackSystemRunDelivery } from './system-run-delivery.js';
import { createThreadReader } from './thread-history.js';
import { createUserDirectory } from './user-names.js';

/** The Slack adapter; `idle` serves tests. */
export interface SlackAdapter extends PlatformAdapter {
  readonly name: 'slack';
  /** `socket` when SLACK_APP_TOKEN is set, else `http` (events and commands at POST /slack/events). */
  readonly mode: 'http' | 'socket';
  /** Resolves once every event received so far has been handled, answers posted included. */
  idle(): Promise<void>;
}

/**
 * The Slack adapter on the real Bolt app: HTTP mode (signed requests at POST /slack/events on the shared
 * HTTP server) or Socket Mode (when SLACK_APP_TOKEN is set). Mentions, DMs and `/ask` become runs;
 * `/reset` and `/memory` answer privately.
 */
export function createSlackAdapter(
  deps: PlatformDeps & {
    /** The clock streams and their budget go by; tests move it. */
    now?: () => number;
    /** Streaming calls a minute per workspace (tests lower them). */
    streamCalls?: { start: number; stop: number; append: number };
  },
): SlackAdapter {
  const { config, assistant } = deps;
  const token = config.SLACK_BOT_TOKEN;
  if (!token) throw new ConfigError(['SLACK_BOT_TOKEN: required for Slack.']);
  const mode = config.SLACK_APP_TOKEN ? 'socket' : 'http';
  const logger = deps.logger.child({ platform: 'slack' });
  const boltLogger = createBoltLogger(deps.logger);
  // A few quick retries, not the client's default half hour: an unreachable API must fail start, not hang it.
  const clientOptions = {
    slackApiUrl: config.SLACK_API_URL,
    retryConfig: { retries: 3, factor: 2, minTimeout: 250, maxTimeout: 2000 },
  };

  let connected = false;
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
    const http = new HTTPReceiver({ signingSecret: config.SLACK_SIGNING_SECRET, logger: boltLogger });
    receiver = createMountedReceiver(http, deps.http);
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

  // Bolt hands listeners pooled clients (one per team), not app.client: each is counted once it is seen.
  const watched = new WeakSet<webApi.WebClient>();
  const watch = (client: webApi.WebClient) => {
    if (!deps.rateLimited || watched.has(client)) return;
    watched.add(client);
    client.on(webApi.WebClientEvent.RATE_LIMITED, () => deps.rateLimited?.('slack'));
  };
  const work = createWorkTracker(logger);
  // Every event is in flight from the first middleware on. A listener acks only after that, so shutdown
  // (and tests) cannot miss an event that was acknowledged but not yet answered.
  app.use(async ({ client, next }) => {
    watch(client);
    await work.track(next());
  });

  const users = createUserDirectory(logger);
  const runs = createRunRegistry();
  const intakeDeps: IntakeDeps = {
    assistant,
    users,
    runs,
    intervalMs: config.STREAM_EDIT_INTERVAL_MS,
    maxMessages: config.ANSWER_MAX_MESSAGES,
    logger,
    work,
    line: deps.line ?? createLocalArrivals(),
    threads: createThreadReader({ users, maxMessages: config.CONTEXT_MAX_MESSAGES, logger }),
    attachmentMaxBytes: config.ATTACHMENT_MAX_BYTES,
    documents: documentLimits(config.ATTACHMENT_MAX_TOKENS, config.DOCUMENT_MAX_BYTES),
    streaming: createStreamingSupport(config.SLACK_STREAMING, logger),
    taskDisplay: config.SLACK_TASK_DISPLAY,
    agent: createAgentSurface(config.SLACK_SUGGESTED_PROMPTS, logger),
    budget: createStreamBudget(deps.streamCalls, deps.now),
    sessions: createAgentSessions(),
    statuses: createSessionStatuses(createSessionSupport(logger), logger),
    now: deps.now,
    follows: deps.follows,
    knowledge: deps.knowledge,
  };
  deps.line?.onInterrupted('slack', (question) => sayInterrupted(app.client, question, logger));
  const intake = createIntake(intakeDeps);
  const systemRuns = slackSystemRunDelivery(intakeDeps, app.client, work.signal);
  const delivery = (body: { event_id?: string; team_id?: string }, context: Context): Delivery => ({
    eventId: body.event_id,
    teamId: context.teamId ?? body.team_id ?? 'unknown',
    botUserId: context.botUserId,
    botId: context.botId,
    retryNum: context.retryNum,
  });
  app.event('app_mention', async ({ event, body, context, client }) => {
    intake.mention(event, delivery(body, context), client);
  });
  app.event('message', async ({ event, body, context, client }) => {
    intake.message(event as IncomingMessage, delivery(body, context), client);
  });
  registerCommands(app, config, intakeDeps);
  registerRunButtons(app, { assistant, runs, users, adminUsers: config.ADMIN_USERS, work, logger });
  registerApprovalButtons(app, { assistant, users, work, logger });
  intakeDeps.agent.register(app);
  intakeDeps.sessions.register(app, { runs, users, work, logger });
  intakeDeps.statuses.register(app);
  // One bad event must never take the process down: Bolt routes listener errors here.
  app.error(async (err) => {
    logger.error({ err }, 'a Slack event failed');
  });

  let started = false;
  let stopped: Promise<void> | undefined;

  async function stop(): Promise<void> {
    try {
      await app.stop();
    } catch (err) {
      logger.warn({ err }, 'stopping the Slack receiver failed');
    }
    started = false;
    await work.drain(config.SHUTDOWN_GRACE_MS);
  }

  return {
    name: 'slack',
    mode,
    async start() {
      try {
        await app.init(); // auth.test: a wrong bot token fails here
      } catch (err) {
        throw explainStartError(err, 'SLACK_BOT_TOKEN', config.SLACK_API_URL);
      }
      try {
        await app.start(); // Socket Mode: apps.connections.open checks the app token
      } catch (err) {
        throw explainStartError(err, 'SLACK_APP_TOKEN', config.SLACK_API_URL);
      }
      started = true;
      logger.info({ mode }, 'slack adapter ready');
    },
    stop: () => {
      stopped ??= stop();
      return stopped;
    },
    readiness() {
      if (!started) return { ready: false, reason: 'not started' };
      if (mode === 'socket' && !connected) return { ready: false, reason: 'Socket Mode is not connected' };
      return { ready: true };
    },
    idle: () => work.idle(),
    systemRuns: trackedDelivery(systemRuns, work, () => started),
  };
}
