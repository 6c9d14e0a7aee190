import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Config } from '../../src/config.js';
import { type Core, createCore } from '../../src/core/create-core.js';
import { createLogger } from '../../src/core/logger.js';
import type { Store } from '../../src/core/ports/store.js';
import {
  approvalSettingsFrom,
  coreOptionsFrom,
  followSettingsFrom,
  recallSettingsFrom,
  scheduleSettingsFrom,
} from '../../src/core-options.js';
import {
  type Knowledge,
  knowledgeSettingsFrom,
  recallArchive,
  startKnowledge,
} from '../../src/knowledge/start-knowledge.js';
import type { Backoff } from '../../src/mcp/mcp-server.js';
import type { McpToolSource } from '../../src/mcp/mcp-tool-source.js';
import { loadMcp, startMcp } from '../../src/mcp/start-mcp.js';
import { createStore } from '../../src/store/create-store.js';
import { type FakeOpenAI, type FakeOpenAIOptions, startFakeOpenAI } from '../fakes/openai-server.js';
import { testConfig } from './config.js';

/** The real core on a scripted model and a SQLite file in a temp folder. */
export interface TestCore {
  core: Core;
  /** The scripted model server: `fake.script(...)` its replies, read `fake.requests`. */
  fake: FakeOpenAI;
  config: Config;
  /** The core's store (as wrapped), which the app also hands the platforms (the web chat's history). */
  store: Store;
  /** The knowledge base's indexer and the channels' shared files, as the configuration asks. */
  knowledge: Knowledge;
  /** The MCP servers of `MCP_CONFIG`, when it is set. */
  mcp: McpToolSource | undefined;
  /** The log lines written (as the root's logger writes them, secrets scrubbed) when `logLines` was asked for. */
  logs: string[];
  /** Temp folder holding the database (`thinkthread.db`) and the tools' `workspace/`; removed by `close`. */
  dir: string;
  /** Closes the core (waiting for work in flight), its store, the fake and the temp folder. */
  close(): Promise<void>;
}

/**
 * Starts the real core via `createCore` with a fake OpenAI server and a fresh SQLite file. `overrides` are
 * environment variables as strings (e.g. `{ MEMORY_MAX_TOKENS: '200' }`); `fakeOptions` configures the fake
 * (e.g. a `fallback` responder). Model retries are off unless overridden.
 */
export async function startTestCore(
  overrides: Record<string, string> = {},
  fakeOptions: FakeOpenAIOptions = {},
  /** `wrapStore` puts something between the core and the real store (e.g. one that fails on demand). */
  /**
   * `mcpBackoff` sets how MCP servers are retried; `captureLogs` keeps every log line (at `debug` unless
   * LOG_LEVEL says otherwise) in `logs`.
   */
  /** `schedules` keeps scheduled questions, on the given clock, fired only when a test ticks the scheduler. */
  options: {
    wrapStore?: (store: Store) => Store;
    mcpBackoff?: Backoff;
    captureLogs?: boolean;
    schedules?: { now?: () => number };
    /** How waiting tool calls are looked after: `beatMs: 0` sweeps only when a test calls `sweep` (a process that died). */
    approvals?: { beatMs?: number; staleMs?: number };
    /** Another core's database (a restart, a second replica); this core's own temp file when unset. */
    databaseUrl?: string;
    /** The clock thread following measures FOLLOW_IDLE on. */
    follows?: { now?: () => number };
  } = {},
): Promise<TestCore> {
  const dir = mkdtempSync(join(tmpdir(), 'thinkthread-core-'));
  mkdirSync(join(dir, 'workspace'));
  const fake = await startFakeOpenAI(fakeOptions);
  try {
    const config = testConfig({
      OPENAI_BASE_URL: fake.url,
      DATABASE_URL: options.databaseUrl ?? `sqlite:${join(dir, 'thinkthread.db')}`,
      PROMPTS_DIR: resolve(import.meta.dirname, '../../prompts'),
      WORKSPACE_DIR: join(dir, 'workspace'),
      LLM_MAX_RETRIES: '0',
      ...overrides,
    });
    // As the root does: mcp.json's secrets are known before the logger is made.
    const mcpConfig = loadMcp(config.MCP_CONFIG, { ...process.env, ...overrides });
    const secrets = mcpConfig?.secrets ?? [];
    const logs: string[] = [];
    const logger = createLogger({
      level: options.captureLogs ? (overrides.LOG_LEVEL ?? 'debug') : (config.LOG_LEVEL ?? 'silent'),
      secrets,
      ...(options.captureLogs ? { write: (line: string) => void logs.push(line) } : {}),
    });
    const { redact } = coreOptionsFrom(config, secrets);
    const mcp = await startMcp(mcpConfig, { settings: config, logger, redact, backoff: options.mcpBackoff });
    const real = await createStore(config.DATABASE_URL);
    const store = options.wrapStore ? options.wrapStore(real) : real;
    const knowledgeSettings = knowledgeSettingsFrom(config);
    const knowledge = await startKnowledge(config, store, logger).catch(async (err: unknown) => {
      await real.close();
      throw err;
    });
    const recall = recallArchive(config, store, logger);
    const core = await createCore({
      ...coreOptionsFrom(config, secrets),
      toolSources: mcp ? [mcp] : [],
      store,
      usage: store,
      settings: store,
      feedback: store,
      recall: { store: recall ?? store, settings: recallSettingsFrom(config) },
      ...(options.schedules
        ? {
            schedules: {
              store,
              settings: scheduleSettingsFrom(config),
              now: options.schedules.now,
              pollMs: 0,
            },
          }
        : {}),
      runLogs: { store, days: config.RUN_LOG_RETENTION_DAYS },
      approvals: { store, waits: store, settings: approvalSettingsFrom(config), ...options.approvals },
      follows: { store, settings: followSettingsFrom(config), ...options.follows },
      knowledge: knowledgeSettings
        ? { store: knowledge.embedded ?? store, settings: knowledgeSettings }
        : undefined,
      logger,
    }).catch(async (err: unknown) => {
      await real.close();
      await mcp?.close();
      throw err;
    });
    let closed: Promise<void> | undefined;
    return {
      core,
      fake,
      config,
      store,
      mcp,
      logs,
      dir,
      knowledge,
      close: () => {
        closed ??= (async () => {
          try {
            knowledge.indexer?.stop();
            knowledge.embedded?.stop();
            recall?.stop();
            await core.close().finally(() => Promise.all([store.close(), mcp?.close()]));
          } finally {
            await fake.close();
            rmSync(dir, { recursive: true, force: true });
          }
        })();
        return closed;
      },
    };
  } catch (err) {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
