import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config.js';
import type { Store } from '../../../src/core/ports/store.js';
import { coreOptionsFrom } from '../../../src/core-options.js';
import { startTestCore, type TestCore } from '../../helpers/test-core.js';
import { withDeadline } from '../../helpers/wait-until.js';

describe('prompt caching', () => {
  let bench: TestCore | undefined;
  let store: Store | undefined;
  afterEach(async () => {
    await bench?.close();
    bench = undefined;
  });

  const start = async (env: Record<string, string>) => {
    bench = await startTestCore(env, {}, { wrapStore: (s) => (store = s) });
    return bench;
  };
  const ask = (key: string, text: string) =>
    bench!.core.assistant.ask(
      {
        key,
        author: 'alice',
        text,
        asker: { platform: 'console', userId: 'alice', principal: 'console:alice', dm: true },
      },
      () => {},
    );
  // The usage record is completed just after the answer is out.
  const recorded = () =>
    withDeadline(
      (async () => {
        for (;;) {
          const [record] = await store!.records({ since: 0, until: Date.now() + 1 });
          if (record && record.outcome !== 'pending') return record;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })(),
      { what: 'the usage record to be completed' },
    );

  it('sends one prompt_cache_key per conversation, naming no channel, when LLM_PROMPT_CACHE_KEY is on', async () => {
    const { fake } = await start({ LLM_PROMPT_CACHE_KEY: 'true' });
    fake.script({ content: 'one' }, { content: 'two' }, { content: 'three' });
    await ask('discord:g1:c1', 'first');
    await ask('discord:g1:c2', 'elsewhere');
    await ask('discord:g1:c1', 'second');
    const keys = fake.requests.map((r) => (r.body as { prompt_cache_key?: string }).prompt_cache_key);
    expect(keys[0]).toMatch(/^tt-[\w-]{22}$/);
    expect(keys[2]).toBe(keys[0]);
    expect(keys[1]).toMatch(/^tt-/);
    expect(keys[1]).not.toBe(keys[0]);
    for (const key of keys) expect(key).not.toMatch(/discord|g1|c1|c2/);
  });

  it('sends no prompt_cache_key to other servers by default, since some reject unknown fields', async () => {
    const { fake } = await start({});
    fake.script({ content: 'ok' });
    await ask('console:local', 'hi');
    expect(fake.requests[0]!.body).not.toHaveProperty('prompt_cache_key');
  });

  it("is on by default for OpenAI's own API and off elsewhere; true/false override", () => {
    const modelOf = (env: Record<string, string>) =>
      coreOptionsFrom(parseConfig({ OPENAI_API_KEY: 'sk-test-123456', ...env })).model.promptCacheKey;
    expect(modelOf({})).toBe(true);
    expect(modelOf({ OPENAI_BASE_URL: 'https://api.openai.com/v1' })).toBe(true);
    expect(modelOf({ OPENAI_BASE_URL: 'http://localhost:11434/v1' })).toBe(false);
    expect(modelOf({ OPENAI_BASE_URL: 'http://localhost:8000/v1', LLM_PROMPT_CACHE_KEY: 'true' })).toBe(true);
    expect(modelOf({ LLM_PROMPT_CACHE_KEY: 'off' })).toBe(false);
    expect(() => parseConfig({ OPENAI_API_KEY: 'sk-test-123456', LLM_PROMPT_CACHE_KEY: 'maybe' })).toThrow(
      /LLM_PROMPT_CACHE_KEY/,
    );
  });

  it.each([
    ['streamed, as OpenAI reports it', 'true', { prompt_tokens_details: { cached_tokens: 1024 } }],
    ['whole, as DeepSeek reports it', 'false', { prompt_cache_hit_tokens: 1024 }],
  ])('records the cached prompt tokens the server reports (%s)', async (_label, stream, cache) => {
    const { fake } = await start({ LLM_STREAM: stream });
    fake.script(
      {
        toolCalls: [{ name: 'calculator', arguments: { expression: '6 * 7' } }],
        usage: { prompt_tokens: 1500, completion_tokens: 20, ...cache },
      },
      { content: '42', usage: { prompt_tokens: 1600, completion_tokens: 5, ...cache } },
    );
    expect((await ask('console:local', 'what is 6 * 7?')).status).toBe('answered');
    const record = await recorded();
    expect(record).toMatchObject({ promptTokens: 3100, cachedTokens: 2048, outcome: 'answered' });
  });

  it('records no cached tokens when the server does not say', async () => {
    const { fake } = await start({});
    fake.script({ content: 'ok', usage: { prompt_tokens: 100, completion_tokens: 5 } });
    await ask('console:local', 'hi');
    const record = await recorded();
    expect(record).toMatchObject({ promptTokens: 100, cachedTokens: 0 });
  });
});
