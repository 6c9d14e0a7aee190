/**
 * The core an eval run asks, built as the app builds it (configuration, MCP servers, tools, memory, the
 * assistant), on a store in memory so that no eval question or its usage lands in the bot's database.
 */
import { type Config, SECRET_KEYS } from '../config.js';
import { type Core, createCore } from '../core/create-core.js';
import { createLogger, createRedactor } from '../core/logger.js';
import { coreOptionsFrom, fallbackKeys, recallSettingsFrom } from '../core-options.js';
import { loadMcp, startMcp } from '../mcp/start-mcp.js';
import { createStore } from '../store/create-store.js';
import type { RecordedObservation } from './eval-case.js';
import { replayingTools } from './recorded-tools.js';

/** The core and how to close it (with its store and MCP servers). */
export interface EvalCore {
  core: Core;
  close(): Promise<void>;
}

/**
 * Starts the core on `config`. With `recordings`, every tool answers from the recorded observations of the case
 * asking (by conversation key) instead of running.
 */
export async function startEvalCore(
  config: Config,
  env: NodeJS.ProcessEnv,
  recordings?: (key: string | undefined) => readonly RecordedObservation[],
): Promise<EvalCore> {
  const mcpConfig = loadMcp(config.MCP_CONFIG, env);
  const secrets = mcpConfig?.secrets ?? [];
  // As the root does: the keys of the configuration and of every fallback model are scrubbed from the logs.
  const logged = [...SECRET_KEYS.map((k) => config[k]), ...fallbackKeys(config, env), ...secrets];
  const logger = createLogger({ level: config.LOG_LEVEL ?? 'warn', secrets: logged });
  const redact = createRedactor(logged);
  const mcp = await startMcp(mcpConfig, { settings: config, logger, redact });
  const store = await createStore('sqlite::memory:');
  try {
    const core = await createCore({
      ...coreOptionsFrom(config, secrets, env),
      toolSources: mcp ? [mcp] : [],
      ...(recordings ? { wrapTool: replayingTools(recordings) } : {}),
      store,
      usage: store,
      settings: store,
      feedback: store,
      recall: { store, settings: recallSettingsFrom(config) },
      logger,
    });
    return {
      core,
      close: async () => {
        await core.close().finally(() => Promise.all([store.close(), mcp?.close()]));
      },
    };
  } catch (err) {
    await Promise.all([store.close(), mcp?.close()]);
    throw err;
  }
}
