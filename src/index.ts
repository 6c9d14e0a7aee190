import { userInfo } from 'node:os';
import dotenv from 'dotenv';
import { type Config, parseConfig, SECRET_KEYS } from './config.js';
import { createCore } from './core/create-core.js';
import { ConfigError, ThinkthreadError } from './core/errors.js';
import { createLogger } from './core/logger.js';
import { coreOptionsFrom } from './core-options.js';
import { createConsoleChat } from './platforms/console/console-chat.js';
import { createPlatformAdapters } from './platforms/create-platform-adapters.js';
import { createStore } from './store/create-store.js';

/** Composition root: config → core → adapters → graceful shutdown. */
async function main(): Promise<void> {
  dotenv.config({ quiet: true });
  let config: Config;
  try {
    config = parseConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) exitWith(configHelp(err));
    throw err;
  }
  const consoleOnly = !config.DISCORD_TOKEN && !config.SLACK_BOT_TOKEN;
  // In the terminal chat, info lines on stderr would interleave with the conversation.
  const level = consoleOnly && !process.env.LOG_LEVEL ? 'warn' : config.LOG_LEVEL;
  const logger = createLogger({ level, secrets: SECRET_KEYS.map((k) => config[k]) });

  let core: Awaited<ReturnType<typeof createCore>>;
  let store: Awaited<ReturnType<typeof createStore>>;
  try {
    store = await createStore(config.DATABASE_URL);
    core = await createCore({ ...coreOptionsFrom(config), store, logger });
  } catch (err) {
    if (err instanceof ThinkthreadError) exitWith(`thinkthread cannot start: ${err.message}`);
    throw err;
  }

  const adapters = await createPlatformAdapters(config, core.assistant, logger);
  const chat =
    adapters.length === 0
      ? createConsoleChat({
          assistant: core.assistant,
          input: process.stdin,
          output: process.stdout,
          tty: Boolean(process.stdin.isTTY && process.stdout.isTTY),
          author: safeUserName(),
        })
      : undefined;
  if (chat) adapters.push(chat);

  let stopping = false;
  const shutdown = async (reason: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    logger.info({ reason }, 'shutting down');
    await Promise.allSettled(adapters.map((a) => a.stop()));
    await core.close().finally(() => store.close());
    process.exit(code);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.on('unhandledRejection', (err) => logger.error({ err: String(err) }, 'unhandled rejection'));

  for (const adapter of adapters) {
    try {
      await adapter.start();
      logger.info({ platform: adapter.name }, 'platform ready');
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      logger.fatal({ platform: adapter.name, err: message }, 'platform failed to start');
      process.stderr.write(`thinkthread: ${adapter.name} failed to start: ${message}\n`);
      await shutdown('start failure', 1);
    }
  }
  if (chat) {
    await chat.finished;
    await shutdown('end of input');
  }
}

function configHelp(err: ConfigError): string {
  return [
    'thinkthread needs some configuration before it can start:',
    ...err.problems.map((p) => `  - ${p}`),
    'Set these in a .env file in this folder (copy .env.example to start) or in the environment.',
  ].join('\n');
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
