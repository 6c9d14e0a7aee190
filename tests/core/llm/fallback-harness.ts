import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { vi } from 'vitest';
import type { Config } from '../../../src/config.js';
import type { AgentEvent } from '../../../src/core/agent/events.js';
import type { AskOutcome } from '../../../src/core/assistant.js';
import { type Core, createCore } from '../../../src/core/create-core.js';
import { createLogger } from '../../../src/core/logger.js';
import type { Store } from '../../../src/core/ports/store.js';
import type { StoredUsageRecord } from '../../../src/core/ports/usage-store.js';
import { coreOptionsFrom } from '../../../src/core-options.js';
import { createMetrics, type Metrics } from '../../../src/metrics/create-metrics.js';
import { createStore } from '../../../src/store/create-store.js';
import { type FakeOpenAI, startFakeOpenAI } from '../../fakes/openai-server.js';
import { testConfig } from '../../helpers/config.js';

/** The primary's model name in every fallback test; fallback `i` (from 1) asks for `fallback-i`. */
export const PRIMARY_MODEL = 'primary-model';

/** The real core over a scripted primary and scripted fallbacks, with metrics and a clock the test moves. */
export interface FallbackCore {
  core: Core;
  primary: FakeOpenAI;
  fallbacks: FakeOpenAI[];
  config: Config;
  store: Store;
  metrics: Metrics;
  /** The circuit breakers' clock: only {@link FallbackCore.advance} moves it. */
  advance(ms: number): void;
  /** `model@host` of the primary and of fallback `i` (from 1), as notices and metrics name them. */
  name(which: 0 | number): string;
  /** Asks one question in `console:local` as alice (governed: usage is recorded), collecting its events. */
  ask(text: string): Promise<{ outcome: AskOutcome; events: AgentEvent[] }>;
  /** Usage records of questions (not summaries), once every one is completed. */
  questionRecords(count: number): Promise<StoredUsageRecord[]>;
  /** `GET /metrics` as Prometheus scrapes it. */
  scrape(): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts `fallbackCount` fallback fakes and a primary fake, and the real core (createCore, SQLite) with
 * OPENAI_BASE_URL = the primary and LLM_FALLBACK = the fallbacks in order. `env` is where `$NAME` entries of
 * LLM_FALLBACK_KEYS are read. Model retries are off unless overridden.
 */
export async function startFallbackCore(
  options: {
    overrides?: Record<string, string>;
    fallbackCount?: number;
    env?: NodeJS.ProcessEnv;
    /** Base URLs put after the fakes in LLM_FALLBACK, as `model@url` entries (e.g. one nothing listens at). */
    extraFallbacks?: string[];
    /** Entries put between the primary and the fakes. */
    leadingFallbacks?: string[];
  } = {},
): Promise<FallbackCore> {
  const dir = mkdtempSync(join(tmpdir(), 'thinkthread-fallback-'));
  mkdirSync(join(dir, 'workspace'));
  const primary = await startFakeOpenAI();
  const fallbacks: FakeOpenAI[] = [];
  for (let i = 0; i < (options.fallbackCount ?? 1); i++) fallbacks.push(await startFakeOpenAI());
  const entries = [
    ...(options.leadingFallbacks ?? []),
    ...fallbacks.map((f, i) => `fallback-${i + 1}@${f.url}`),
    ...(options.extraFallbacks ?? []),
  ];
  const config = testConfig({
    OPENAI_BASE_URL: primary.url,
    LLM_MODEL: PRIMARY_MODEL,
    LLM_FALLBACK: entries.join(','),
    DATABASE_URL: `sqlite:${join(dir, 'thinkthread.db')}`,
    PROMPTS_DIR: resolve(import.meta.dirname, '../../../prompts'),
    WORKSPACE_DIR: join(dir, 'workspace'),
    LLM_MAX_RETRIES: '0',
    ...options.overrides,
  });
  let clock = 1_000_000;
  const metrics = createMetrics({ inFlight: () => 0, toolNames: () => [] });
  const store = await createStore(config.DATABASE_URL);
  const core = await createCore({
    ...coreOptionsFrom(config, [], options.env ?? {}),
    store,
    usage: store,
    settings: store,
    feedback: store,
    observer: metrics.observer,
    now: () => clock,
    logger: createLogger({ level: config.LOG_LEVEL ?? 'silent', secrets: [] }),
  });
  const hostOf = (url: string) => new URL(url).host;
  return {
    core,
    primary,
    fallbacks,
    config,
    store,
    metrics,
    advance: (ms) => {
      clock += ms;
    },
    name: (which) =>
      which === 0
        ? `${PRIMARY_MODEL}@${hostOf(primary.url)}`
        : `fallback-${which}@${hostOf(fallbacks[which - 1]!.url)}`,
    async ask(text) {
      const events: AgentEvent[] = [];
      const outcome = await core.assistant.ask(
        {
          key: 'console:local',
          author: 'alice',
          text,
          asker: { platform: 'console', userId: 'alice', principal: 'console:alice', dm: true },
        },
        (event) => events.push(event),
      );
      return { outcome, events };
    },
    questionRecords: (count) =>
      vi.waitFor(
        async () => {
          const all = await store.records({ since: 0, until: Date.now() + 60_000 });
          const records = all.filter((r) => r.outcome !== 'summary');
          if (records.length < count || records.some((r) => r.outcome === 'pending')) {
            throw new Error(`waiting for ${count} completed usage records, have ${JSON.stringify(records)}`);
          }
          return records;
        },
        { timeout: 5000, interval: 5 },
      ),
    async scrape() {
      const server = createServer((req, res) => void metrics.handler(req, res));
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      try {
        const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`);
        return await res.text();
      } finally {
        server.close();
      }
    },
    async close() {
      try {
        await core.close();
        await store.close();
      } finally {
        await Promise.all([primary.close(), ...fallbacks.map((f) => f.close())]);
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** The notices of a question's events. */
export function notices(events: readonly AgentEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'notice' ? [e.message] : []));
}
