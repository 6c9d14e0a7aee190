import { afterEach, describe, expect, it, vi } from 'vitest';
import { createModelChains } from '../../../src/core/llm/create-model-chains.js';
import { type FakeOpenAI, type RecordedRequest, startFakeOpenAI } from '../../fakes/openai-server.js';
import { type FallbackCore, startFallbackCore } from './fallback-harness.js';

let fakes: FakeOpenAI[] = [];
let bot: FallbackCore | undefined;
afterEach(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
  await bot?.close();
  bot = undefined;
});

async function chains() {
  const [primary, fallback] = [await startFakeOpenAI(), await startFakeOpenAI()];
  fakes.push(primary, fallback);
  const models = createModelChains(
    { baseURL: primary.url, model: 'primary-model', maxRetries: 0, timeoutMs: 5000, stream: true },
    'summary-model',
    { endpoints: [{ model: 'fallback-model', baseURL: fallback.url }], afterMs: 30_000, cooldownMs: 60_000 },
    {},
  );
  return { primary, fallback, models };
}

const ask = [{ role: 'user' as const, content: 'Hello?' }];

describe('the model chains over LLM_FALLBACK', () => {
  it("a channel's model applies to the primary only; a fallback asks for its own", async () => {
    const { primary, fallback, models } = await chains();
    primary.script({ content: 'from the primary' }, { status: 503 });
    fallback.script({ content: 'from the fallback' });

    const first = await models.agent.complete({ messages: ask, model: 'channel-model' });
    expect(first.answeredBy).toEqual({
      model: 'channel-model',
      endpoint: expect.stringMatching(/^channel-model@/),
    });
    const second = await models.agent.complete({ messages: ask, model: 'channel-model' });

    expect(second.content).toBe('from the fallback');
    expect(primary.requests.map((r) => r.body.model)).toEqual(['channel-model', 'channel-model']);
    expect(fallback.requests.map((r) => r.body.model)).toEqual(['fallback-model']);
    expect(second.answeredBy).toMatchObject({
      model: 'fallback-model',
      insteadOf: expect.stringMatching(/^channel-model@/),
    });
  });

  it('summaries ask the primary for SUMMARY_MODEL, fetched whole, and a fallback for its own model', async () => {
    const { primary, fallback, models } = await chains();
    primary.script({ status: 503 });
    fallback.script({ content: 'A summary.' });

    const summary = await models.summary.complete({ messages: ask });

    expect(summary.content).toBe('A summary.');
    expect(primary.requests[0]?.body).toMatchObject({ model: 'summary-model' });
    expect(primary.requests[0]?.body.stream).toBeFalsy();
    expect(fallback.requests[0]?.body).toMatchObject({ model: 'fallback-model' });
    expect(fallback.requests[0]?.body.stream).toBeFalsy();
  });

  it('the agent and the summaries share each endpoint’s circuit: a primary down for one is skipped by the other', async () => {
    const { primary, fallback, models } = await chains();
    primary.script({ status: 503 });
    fallback.script({ content: 'Answer.' }, { content: 'Summary.' });

    await models.agent.complete({ messages: ask });
    await models.summary.complete({ messages: ask });

    expect(primary.requests).toHaveLength(1);
    expect(models.startingModel('primary-model')).toBe('fallback-model');
  });

  it('the usage record of a summary a fallback wrote names the fallback model', async () => {
    const isSummary = (r: RecordedRequest) => !r.body.stream;
    bot = await startFallbackCore({
      overrides: { SUMMARY_MODEL: 'summary-model', MEMORY_MAX_TOKENS: '60', MEMORY_KEEP_TURNS: '1' },
    });
    // The primary answers questions but not summaries; the fallback writes the summary.
    const many = <T>(step: T): T[] => Array.from({ length: 10 }, () => step);
    bot.primary.script(
      ...many((r: RecordedRequest) =>
        isSummary(r) ? { status: 503 } : { content: 'An answer of a few words.' },
      ),
    );
    bot.fallbacks[0]!.script(...many({ content: 'The summary so far.' }));
    for (const q of ['First question here.', 'Second question here.', 'Third question here.']) {
      expect((await bot.ask(q)).outcome).toMatchObject({ status: 'answered' });
    }

    await vi.waitFor(
      async () => {
        const records = await bot!.store.records({ since: 0, until: Date.now() + 60_000 });
        const summaries = records.filter((r) => r.outcome === 'summary');
        expect(summaries.map((r) => r.model)).toContain('fallback-1');
      },
      { timeout: 5000, interval: 5 },
    );
    expect(bot.primary.requests.find(isSummary)?.body.model).toBe('summary-model');
    expect(bot.fallbacks[0]!.requests.find(isSummary)?.body.model).toBe('fallback-1');
  });
});
