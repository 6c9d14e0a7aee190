import { userInfo } from 'node:os';
import dotenv from 'dotenv';
import { type Config, parseConfig, SECRET_KEYS } from './config.js';
import { resumerThrough } from './core/approvals/resume-through.js';
import { noticingWaits } from './core/approvals/waiting-line.js';
import { createCore } from './core/create-core.js';
import { ConfigError, StorageLostError, ThinkthreadError } from './core/errors.js';
import { createLogger, createRedactor, type Logger } from './core/logger.js';
import type { ConversationStore } from './core/ports/conversation-store.js';
import { createRunQueue } from './core/runs/run-queue.js';
import { setTraceContent } from './core/tracing/spans.js';
import {
  approvalSettingsFrom,
  coreOptionsFrom,
  fallbackKeys,
  followSettingsFrom,
  recallSettingsFrom,
  scheduleSettingsFrom,
} from './core-options.js';
import type { EmbeddedRecall } from './knowledge/embedded-recall.js';
import {
  type Knowledge,
  knowledgeSettingsFrom,
  recallArchive,
  startKnowledge,
} from './knowledge/start-knowledge.js';
import { type McpConfig, McpConfigError } from './mcp/config/mcp-config.js';
import { loadMcp, startMcp } from './mcp/start-mcp.js';
import { createMetrics } from './metrics/create-metrics.js';
import { createConsoleChat } from './platforms/console/console-chat.js';
import { platformCheck } from './platforms/readiness-check.js';
import { enabledPlatforms, PLATFORMS } from './platforms/registry.js';
import { documentLimits } from './platforms/shared/read-document.js';
import type { PlatformAdapter } from './platforms/types.js';
import { createHttpServer, type ReadinessCheck } from './server/http-server.js';
import { createStore } from './store/create-store.js';
import { type Coordination, openCoordination } from './store/open-coordination.js';
import { watchStore } from './store/store-watchdog.js';
import { startTracing } from './tracing/start-tracing.js';

/** Why a bot with no platform and no input stops. */
const NOTHING_TO_SERVE =
  'no platform is configured and standard input is empty, so there is no one to answer. Set WEB_CHAT=true ' +
  '(with WEB_CHAT_TOKEN and WEB_HOST=0.0.0.0 to reach it from outside a container), DISCORD_TOKEN or ' +
  'SLACK_BOT_TOKEN; or run it in a terminal to chat there.';

/** Composition root: config → core → platforms and the HTTP server → graceful shutdown. */
async function main(): Promise<void> {
  dotenv.config({ quiet: true });
  let config: Config;
  let mcp: McpConfig | undefined;
  let modelKeys: (string | undefined)[];
  try {
    config = parseConfig(process.env);
    modelKeys = fallbackKeys(config, process.env);
    mcp = loadMcp(config.MCP_CONFIG, process.env);
  } catch (err) {
    if (err instanceof ConfigError) exitWith(configHelp(err));
    if (err instanceof McpConfigError) exitWith(`thinkthread cannot start: ${err.message}`);
    throw err;
  }
  const platforms = enabledPlatforms(config);
  // In the terminal chat, info lines on stderr would interleave with the conversation.
  const level = config.LOG_LEVEL ?? (platforms.length === 0 ? 'warn' : 'info');
  // Values mcp.json takes from the environment (tokens in env and headers) are as secret as the keys, and
  // so is each fallback model's key, one by one (LLM_FALLBACK_KEYS may name them by variable).
  const secrets = [...SECRET_KEYS.map((k) => config[k]), ...modelKeys, ...(mcp?.secrets ?? [])];
  const logger = createLogger({ level, secrets, patterns: PLATFORMS.flatMap((p) => p.secretPatterns ?? []) });
  const redact = createRedactor(secrets);
  // Tracing (OTEL_EXPORTER_OTLP_ENDPOINT) is on before the core starts its first span; off, nothing is loaded.
  setTraceContent(config.OTEL_CAPTURE_CONTENT);
  const tracing = config.OTEL_EXPORTER_OTLP_ENDPOINT ? await startTracing({ logger }) : undefined;

  let core: Awaited<ReturnType<typeof createCore>> | undefined;
  let store: Awaited<ReturnType<typeof createStore>>;
  let coordination: Coordination;
  let knowledge: Knowledge = {};
  let recall: EmbeddedRecall | undefined;
  const knowledgeSettings = knowledgeSettingsFrom(config);
  let runQueue: ReturnType<typeof createRunQueue>;
  const metrics = config.METRICS
    ? createMetrics({
        inFlight: () => core?.assistant.inFlight() ?? 0,
        queueDepth: () => runQueue?.waiting() ?? 0,
        toolNames: () => core?.assistant.tools().groups.flatMap((g) => g.tools) ?? [],
      })
    : undefined;
  const mcpTools = await startMcp(mcp, { settings: config, logger, redact });
  try {
    store = await createStore(config.DATABASE_URL, { poolSize: config.DATABASE_POOL_SIZE });
    knowledge = await startKnowledge(config, store, logger);
    recall = recallArchive(config, store, logger);
    const limits = {
      MAX_CONCURRENT_RUNS: config.MAX_CONCURRENT_RUNS,
      MAX_QUEUED_PER_CHANNEL: config.MAX_QUEUED_PER_CHANNEL,
    };
    const onWait = (ms: number) => metrics?.observer.waited?.(ms);
    // With Postgres, replicas share one line of questions and the Discord shard leases.
    coordination = await openCoordination(config.DATABASE_URL, { limits, onWait, logger });
    runQueue = coordination.queue ?? createRunQueue(limits, onWait);
    core = await createCore({
      runQueue,
      ...coreOptionsFrom(config, mcp?.secrets),
      toolSources: mcpTools ? [mcpTools] : [],
      store,
      usage: store,
      settings: store,
      feedback: store,
      recall: { store: recall ?? store, settings: recallSettingsFrom(config) },
      schedules: { store, settings: scheduleSettingsFrom(config) },
      runLogs: { store, days: config.RUN_LOG_RETENTION_DAYS },
      approvals: { store, waits: store, settings: approvalSettingsFrom(config) },
      follows: { store, settings: followSettingsFrom(config) },
      knowledge: knowledgeSettings
        ? { store: knowledge.embedded ?? store, settings: knowledgeSettings }
        : undefined,
      observer: metrics?.observer,
      logger,
    });
  } catch (err) {
    if (err instanceof ThinkthreadError) exitWith(`thinkthread cannot start: ${redact(err.message)}`);
    throw err;
  }

  let stopping = false;
  const adapters: PlatformAdapter[] = [];
  const http = createHttpServer({
    logger,
    readiness: () =>
      readinessChecks(
        adapters,
        store,
        () => stopping,
        logger,
        () => core?.assistant.health() ?? coordination?.health(),
      ),
  });
  // On a public PORT /metrics needs METRICS_TOKEN as a bearer token, or is not there; HEALTH_PORT serves it.
  if (metrics) http.mount('GET', '/metrics', metrics.handler, { internal: { token: config.METRICS_TOKEN } });
  for (const platform of platforms) {
    adapters.push(
      await platform.create({
        config,
        assistant: core.assistant,
        logger,
        http,
        rateLimited: metrics?.rateLimited,
        line: noticingWaits(runQueue, store, logger),
        shards: coordination.shards,
        store,
        follows: core.follows,
        knowledge: knowledge.channel,
        knowledgeBase: knowledge.indexer,
      }),
    );
  }
  const chat =
    adapters.length === 0
      ? createConsoleChat({
          assistant: core.assistant,
          input: process.stdin,
          output: process.stdout,
          tty: Boolean(process.stdin.isTTY && process.stdout.isTTY),
          author: safeUserName(),
          logger,
          files: {
            maxBytes: config.ATTACHMENT_MAX_BYTES,
            documents: documentLimits(config.ATTACHMENT_MAX_TOKENS, config.DOCUMENT_MAX_BYTES),
            logger,
          },
          knowledge: knowledge.channel,
        })
      : undefined;
  if (chat) adapters.push(chat);

  const shutdown = async (reason: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    logger.info({ reason }, 'shutting down');
    // No scheduled run starts on a platform that is stopping; unsettled claims go back to the other replicas.
    await core.schedules?.stop();
    await core.approvals?.stop();
    knowledge.indexer?.stop();
    knowledge.embedded?.stop();
    recall?.stop();
    await Promise.allSettled(adapters.map((a) => a.stop()));
    await http.close();
    await core
      .close()
      .finally(() => coordination.close())
      .finally(() => Promise.all([store.close(), mcpTools?.close()]))
      .finally(() => tracing?.shutdown());
    process.exit(code);
  };
  // A deleted database file or a dropped schema: say so once and exit 1, so the orchestrator restarts the bot.
  watchStore(store, (err) => {
    logger.fatal({ reason: redact(err.message) }, 'the database is gone; stopping');
    process.stderr.write(`thinkthread: ${redact(err.message)}. Stopping.\n`);
    void shutdown('database lost', 1);
  });
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.on('unhandledRejection', (err) => logger.error({ err }, 'unhandled rejection'));

  try {
    await listen(
      http,
      config,
      platforms.some((p) => p.needsHttp(config)),
      logger,
    );
  } catch (err) {
    logger.fatal({ err }, 'the HTTP server could not start');
    process.stderr.write(`thinkthread: the HTTP server could not start: ${redact(messageOf(err))}\n`);
    await shutdown('start failure', 1);
  }
  for (const adapter of adapters) {
    try {
      await adapter.start();
      logger.info({ platform: adapter.name }, 'platform ready');
    } catch (err) {
      logger.fatal({ platform: adapter.name, err }, 'platform failed to start');
      process.stderr.write(`thinkthread: ${adapter.name} failed to start: ${redact(messageOf(err))}\n`);
      await shutdown('start failure', 1);
    }
  }
  // Scheduled questions fire, and runs left waiting for approval by a stopped process go on, once the
  // platforms that deliver them are up.
  const deliveries = Object.fromEntries(
    adapters.flatMap((a) => (a.systemRuns ? [[a.name, a.systemRuns] as const] : [])),
  );
  core.schedules?.start(deliveries);
  core.approvals?.start(resumerThrough(deliveries));
  if (chat) {
    await chat.finished;
    if (!stopping && !process.stdin.isTTY && chat.lines === 0) {
      // A container (or a service) with only a model set: nothing to chat in, so say what to set, not loop.
      process.stderr.write(`thinkthread: ${NOTHING_TO_SERVE}\n`);
      await shutdown('no platform and no input', 1);
    }
    // Piped, a failed or refused question (or an unknown command) makes the exit code 1, so a script can tell.
    await shutdown('end of input', !process.stdin.isTTY && chat.failures > 0 ? 1 : 0);
  }
}

/**
 * Starts the HTTP server when something needs it: on PORT when a platform receives requests, and on
 * HEALTH_PORT (when set) for the health checks of any deployment.
 */
async function listen(
  http: ReturnType<typeof createHttpServer>,
  config: Config,
  platformsNeedHttp: boolean,
  logger: Logger,
): Promise<void> {
  const ports = new Set<number>();
  if (platformsNeedHttp) ports.add(config.PORT);
  if (config.HEALTH_PORT !== undefined) ports.add(config.HEALTH_PORT);
  for (const port of ports) {
    // The web chat serves conversations on PORT, so PORT binds to WEB_HOST (loopback by default) while it is on.
    const host = config.WEB_CHAT && port === config.PORT ? config.WEB_HOST : undefined;
    // HEALTH_PORT is the operator's (metrics, readiness reasons), unless it is also the PORT platforms serve on.
    const internal = port === config.HEALTH_PORT && !(platformsNeedHttp && port === config.PORT);
    const bound = await http.listen(port, host, { internal });
    logger.info({ port: bound, host }, 'HTTP server listening (GET /healthz, GET /readyz)');
  }
}

/** What GET /readyz checks: not shutting down, every platform connected, the store reachable. */
function readinessChecks(
  adapters: readonly PlatformAdapter[],
  store: ConversationStore,
  stopping: () => boolean,
  logger: Logger,
  assistantHealth: () => string | undefined,
): ReadinessCheck[] {
  return [
    { name: 'process', check: () => (stopping() ? 'shutting down' : undefined) },
    {
      name: 'store',
      async check() {
        try {
          await store.ping();
          return assistantHealth();
        } catch (err) {
          // The cause (which may name the database) goes to the log, not to whoever asks /readyz.
          logger.warn({ err }, 'readiness: the store is unreachable');
          return err instanceof StorageLostError ? 'database lost' : 'unreachable';
        }
      },
    },
    ...adapters.map(platformCheck),
  ];
}

function configHelp(err: ConfigError): string {
  return [
    'thinkthread needs some configuration before it can start:',
    ...err.problems.map((p) => `  - ${p}`),
    'Set these in a .env file in this folder (copy .env.example to start) or in the environment.',
  ].join('\n');
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function exitWith(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function safeUserName(): string {
  try {
    return userInfo().username || 'you';
  } catch {
    return 'you';
  }
}

await main();
