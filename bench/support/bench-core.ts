import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../src/config.js';
import { type Core, createCore } from '../../src/core/create-core.js';
import { createLogger } from '../../src/core/logger.js';
import { coreOptionsFrom } from '../../src/core-options.js';
import { createStore } from '../../src/store/create-store.js';
import { testConfig } from '../../tests/helpers/config.js';
import { PROMPTS_DIR } from './paths.js';

/** The real core (createCore, default tools, a SQLite file in a temp folder) on a given model server. */
export interface BenchCore {
  core: Core;
  config: Config;
  dir: string;
  close(): Promise<void>;
}

/** Starts createCore against `modelUrl`; `overrides` are environment variables as strings. */
export async function startBenchCore(
  modelUrl: string,
  overrides: Record<string, string> = {},
): Promise<BenchCore> {
  const dir = mkdtempSync(join(tmpdir(), 'thinkthread-bench-'));
  mkdirSync(join(dir, 'workspace'));
  const config = testConfig({
    OPENAI_BASE_URL: modelUrl,
    LLM_MODEL: 'fake-model',
    DATABASE_URL: `sqlite:${join(dir, 'thinkthread.db')}`,
    PROMPTS_DIR,
    WORKSPACE_DIR: join(dir, 'workspace'),
    ...overrides,
  });
  const store = await createStore(config.DATABASE_URL);
  const logger = createLogger({ level: 'silent', secrets: [] });
  const core = await createCore({ ...coreOptionsFrom(config), store, usage: store, settings: store, logger });
  return {
    core,
    config,
    dir,
    async close() {
      try {
        await core.close().finally(() => store.close());
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
