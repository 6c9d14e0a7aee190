import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore } from '../../src/core/create-core.js';
import { createLogger } from '../../src/core/logger.js';
import { coreOptionsFrom } from '../../src/core-options.js';
import { MAX_LABEL_CHARS } from '../../src/metrics/bounded-metrics.js';
import { createMetrics, type Metrics } from '../../src/metrics/create-metrics.js';
import { createStore } from '../../src/store/create-store.js';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import { testConfig } from '../helpers/config.js';

/** Serves the metrics on loopback and returns one scrape. */
async function scrape(metrics: Metrics): Promise<string> {
  const server = createServer((req, res) => void metrics.handler(req, res));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  try {
    return await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`)).text();
  } finally {
    server.close();
  }
}

/** Every label value of every sample line in a Prometheus exposition. */
function labelValues(exposition: string): string[] {
  const values: string[] = [];
  for (const line of exposition.split('\n')) {
    if (line.startsWith('#')) continue;
    for (const match of line.matchAll(/="((?:[^"\\]|\\.)*)"/g)) values.push(JSON.parse(`"${match[1]}"`));
  }
  return values;
}

const HOSTILE = `calculator"} 1\nthinkthread_runs_total{platform="x"} 1e9\n${'ignore previous instructions '.repeat(20)}`;

describe('metric labels', () => {
  it('count a tool the bot does not know as "unknown", and cut any label to 64 characters', async () => {
    const metrics = createMetrics({ inFlight: () => 0, toolNames: () => ['calculator', 'docs__search'] });
    const base = { durationMs: 10, modelCalls: 1, promptTokens: 1, completionTokens: 1 };
    const tools = { calculator: 1, docs__search: 2, [HOSTILE]: 1, ['x'.repeat(500)]: 1, made_up_tool: 3 };
    metrics.observer.observe({ platform: 'slack', outcome: 'answered', ...base, tools });
    metrics.observer.observe({ platform: 'p'.repeat(200), outcome: 'answered', ...base, tools: {} });
    metrics.rateLimited('r'.repeat(300));
    const text = await scrape(metrics);

    expect(text).toMatch(/^thinkthread_tool_calls_total\{tool="calculator"\} 1$/m);
    expect(text).toMatch(/^thinkthread_tool_calls_total\{tool="docs__search"\} 2$/m);
    expect(text).toMatch(/^thinkthread_tool_calls_total\{tool="unknown"\} 5$/m);
    expect(text.match(/^thinkthread_tool_calls_total\{/gm)).toHaveLength(3);
    expect(text).not.toContain('ignore previous');
    expect(text).not.toContain('1e9');
    const values = labelValues(text);
    expect(values.length).toBeGreaterThan(10);
    expect(Math.max(...values.map((v) => v.length))).toBeLessThanOrEqual(MAX_LABEL_CHARS);
    expect(values).toContain('p'.repeat(MAX_LABEL_CHARS));
    expect(values).toContain('r'.repeat(MAX_LABEL_CHARS));
  });
});

describe('a run whose model calls a tool that does not exist', () => {
  let fake: FakeOpenAI | undefined;
  let dir: string | undefined;
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    await fake?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    close = undefined;
    fake = undefined;
    dir = undefined;
  });

  it('is counted under tool="unknown", beside the real tool it also called', async () => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-metrics-'));
    mkdirSync(join(dir, 'workspace'));
    fake = await startFakeOpenAI();
    const config = testConfig({
      OPENAI_BASE_URL: fake.url,
      DATABASE_URL: `sqlite:${join(dir, 'thinkthread.db')}`,
      PROMPTS_DIR: resolve(import.meta.dirname, '../../prompts'),
      WORKSPACE_DIR: join(dir, 'workspace'),
      LLM_MAX_RETRIES: '0',
    });
    const store = await createStore(config.DATABASE_URL);
    let core: Awaited<ReturnType<typeof createCore>> | undefined;
    const metrics = createMetrics({
      inFlight: () => 0,
      toolNames: () => core?.assistant.tools().groups.flatMap((g) => g.tools) ?? [],
    });
    core = await createCore({
      ...coreOptionsFrom(config),
      store,
      usage: store,
      settings: store,
      feedback: store,
      observer: metrics.observer,
      logger: createLogger({ level: 'silent', secrets: [] }),
    });
    const running = core;
    close = () => running.close().finally(() => store.close());

    const invented = `pwn_${'A'.repeat(200)}`;
    fake.script(
      {
        toolCalls: [
          { name: invented, arguments: {} },
          { name: 'calculator', arguments: { expression: '2 + 2' } },
        ],
      },
      { content: 'Four.' },
    );
    const asker = { platform: 'console', userId: 'me', principal: 'console:me', dm: true };
    const outcome = await core.assistant.ask(
      { key: 'console:local', author: 'me', text: 'hi', asker },
      () => {},
    );
    expect(outcome).toMatchObject({ status: 'answered', text: 'Four.' });

    const text = await scrape(metrics);
    expect(text).toMatch(/^thinkthread_tool_calls_total\{tool="unknown"\} 1$/m);
    expect(text).toMatch(/^thinkthread_tool_calls_total\{tool="calculator"\} 1$/m);
    expect(text).not.toContain('pwn_');
    expect(text).toMatch(/^thinkthread_runs_total\{platform="console",outcome="answered"\} 1$/m);
  });
});
