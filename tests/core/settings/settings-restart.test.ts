import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore } from '../../../src/core/create-core.js';
import type { Asker } from '../../../src/core/governance/asker.js';
import { createLogger } from '../../../src/core/logger.js';
import { coreOptionsFrom } from '../../../src/core-options.js';
import { createStore } from '../../../src/store/create-store.js';
import { type FakeOpenAI, startFakeOpenAI } from '../../fakes/openai-server.js';
import { testConfig } from '../../helpers/config.js';

const OPERATOR: Asker = {
  platform: 'console',
  userId: 'operator',
  principal: 'console:operator',
  dm: true,
  platformAdmin: true,
};
const KEY = 'discord:g:c1';

describe('channel settings across a restart', () => {
  let dir: string;
  let fake: FakeOpenAI;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-settings-'));
    fake = await startFakeOpenAI();
  });
  afterEach(async () => {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Starts the core on the same database file, runs `work`, and shuts it down as the bot would. */
  async function withBot(work: (core: Awaited<ReturnType<typeof createCore>>) => Promise<void>) {
    const config = testConfig({
      OPENAI_BASE_URL: fake.url,
      DATABASE_URL: `sqlite:${join(dir, 'thinkthread.db')}`,
      PROMPTS_DIR: resolve(import.meta.dirname, '../../../prompts'),
      LLM_MODELS: 'big-model',
      LLM_MAX_RETRIES: '0',
    });
    const store = await createStore(config.DATABASE_URL);
    const core = await createCore({
      ...coreOptionsFrom(config),
      store,
      usage: store,
      settings: store,
      logger: createLogger({ level: 'silent', secrets: [] }),
    });
    try {
      await work(core);
    } finally {
      await core.close();
      await store.close();
    }
  }

  it('keeps a channel’s prompt, model and protocol, and applies them after the restart', async () => {
    await withBot(async ({ assistant }) => {
      for (const [name, value] of [
        ['prompt', 'Answer in French.'],
        ['model', 'big-model'],
        ['protocol', 'react'],
      ] as const) {
        const outcome = await assistant.settings(OPERATOR, KEY, { action: 'set', name, value });
        expect(outcome.status).toBe('saved');
      }
    });
    await withBot(async ({ assistant }) => {
      expect((await assistant.settingsIn(KEY)).own).toEqual(['prompt', 'model', 'protocol']);
      fake.script({ content: 'Thought: simple.\nFinal Answer: Bonjour.' });
      const outcome = await assistant.ask(
        { key: KEY, author: 'alice', text: 'hello', asker: OPERATOR },
        () => {},
      );
      expect(outcome).toMatchObject({ status: 'answered', text: 'Bonjour.' });
      const request = fake.requests[0]!;
      expect(request.body.model).toBe('big-model');
      expect(request.body.tools).toBeUndefined(); // the react protocol
      expect(request.body.messages[1]).toMatchObject({
        role: 'system',
        content: expect.stringContaining('Answer in French.'),
      });
    });
    // The usage record names the model and protocol the channel used.
    const store = await createStore(`sqlite:${join(dir, 'thinkthread.db')}`);
    try {
      const records = await store.records({ since: 0, until: Date.now() + 1 });
      expect(records.map((r) => [r.outcome, r.model, r.protocol])).toEqual([
        ['answered', 'big-model', 'react'],
      ]);
    } finally {
      await store.close();
    }
  });

  it('falls back to the default for a saved model taken off LLM_MODELS', async () => {
    await withBot(async ({ assistant }) => {
      await assistant.settings(OPERATOR, KEY, { action: 'set', name: 'model', value: 'big-model' });
    });
    const config = testConfig({ DATABASE_URL: `sqlite:${join(dir, 'thinkthread.db')}` });
    const store = await createStore(config.DATABASE_URL);
    try {
      expect(await store.getSettings(KEY)).toEqual({ model: 'big-model' });
      await store.setSettings(KEY, { model: 'retired-model' });
    } finally {
      await store.close();
    }
    await withBot(async ({ assistant }) => {
      const settings = await assistant.settingsIn(KEY);
      expect(settings.model).toBe('gpt-4o-mini');
      expect(settings.own).toEqual([]);
    });
  });
});
