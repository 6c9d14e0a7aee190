import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../../fakes/openai-server.js';
import { type FallbackCore, notices, startFallbackCore } from './fallback-harness.js';

let bot: FallbackCore | undefined;
afterEach(async () => {
  await bot?.close();
  bot = undefined;
});

const answered = (text: string) => ({ status: 'answered', text });

describe('a model that goes down (LLM_FALLBACK)', () => {
  it('a primary answering 503 is answered by the fallback, with its own model and key, and the steps say so', async () => {
    bot = await startFallbackCore({
      overrides: { LLM_FALLBACK_KEYS: '$FALLBACK_KEY' },
      env: { FALLBACK_KEY: 'fb-secret-key-0123456' },
    });
    bot.primary.script({ status: 503 });
    bot.fallbacks[0]!.script({ content: 'Paris, from the fallback.' });

    const { outcome, events } = await bot.ask('What is the capital of France?');

    expect(outcome).toMatchObject(answered('Paris, from the fallback.'));
    expect(bot.primary.requests).toHaveLength(1);
    const [request] = bot.fallbacks[0]!.requests;
    expect(request?.body.model).toBe('fallback-1');
    expect(request?.headers.authorization).toBe('Bearer fb-secret-key-0123456');
    expect(notices(events)).toEqual([
      `The primary model (${bot.name(0)}) was unavailable; answered by ${bot.name(1)}.`,
    ]);
    // Named by model and host only: no key, no scheme or path of the URL.
    expect(JSON.stringify(events)).not.toContain('fb-secret-key');
    expect(notices(events)[0]).not.toContain('http');
  });

  it('a primary hanging past LLM_TIMEOUT_MS is left after one timeout, not one per retry', async () => {
    bot = await startFallbackCore({ overrides: { LLM_TIMEOUT_MS: '1000', LLM_MAX_RETRIES: '2' } });
    bot.primary.script(() => ({ hang: true }));
    bot.fallbacks[0]!.script({ content: 'Answered while the primary hangs.' });

    const { outcome, events } = await bot.ask('Are you there?');

    expect(outcome).toMatchObject(answered('Answered while the primary hangs.'));
    expect(bot.primary.requests).toHaveLength(1);
    expect(notices(events)).toHaveLength(1);
  });

  it.each([
    ['retry-after: 600', { 'retry-after': '600' }],
    ['retry-after-ms: 45000', { 'retry-after-ms': '45000' }],
  ])(
    'a 429 with %s (past LLM_FALLBACK_AFTER_MS) moves to the fallback at once, without the SDK asking again',
    async (_, headers) => {
      bot = await startFallbackCore({ overrides: { LLM_MAX_RETRIES: '3' } });
      bot.primary.script(() => ({ status: 429, headers }));
      bot.fallbacks[0]!.script({ content: 'Not rate-limited here.' });

      const { outcome } = await bot.ask('Hello?');

      expect(outcome).toMatchObject(answered('Not rate-limited here.'));
      expect(bot.primary.requests).toHaveLength(1);
    },
  );

  it('a 429 with retry-after: 1 (within LLM_FALLBACK_AFTER_MS) is retried on the primary, which answers', async () => {
    bot = await startFallbackCore({ overrides: { LLM_MAX_RETRIES: '1', LLM_FALLBACK_AFTER_MS: '30000' } });
    bot.primary.script(
      { status: 429, headers: { 'retry-after': '1' } },
      { content: 'The primary, after a short wait.' },
    );

    const { outcome, events } = await bot.ask('Hello?');

    expect(outcome).toMatchObject(answered('The primary, after a short wait.'));
    expect(bot.primary.requests).toHaveLength(2);
    expect(bot.fallbacks[0]!.requests).toHaveLength(0);
    expect(notices(events)).toEqual([]);
  });

  it('a short 429 that outlasts the retries moves this request on, but keeps the primary in service', async () => {
    bot = await startFallbackCore({ overrides: { LLM_MAX_RETRIES: '0' } });
    bot.primary.script({ status: 429, headers: { 'retry-after': '1' } }, { content: 'The primary again.' });
    bot.fallbacks[0]!.script({ content: 'The fallback, this once.' });

    expect((await bot.ask('One?')).outcome).toMatchObject(answered('The fallback, this once.'));
    expect((await bot.ask('Two?')).outcome).toMatchObject(answered('The primary again.'));
    expect(bot.primary.requests).toHaveLength(2);
  });

  it('a 400 is not retried elsewhere: the question fails with the clear error it always had', async () => {
    bot = await startFallbackCore();
    bot.primary.script({ status: 400, body: { error: { message: 'bad request' } } });

    const { outcome } = await bot.ask('Hello?');

    expect(outcome).toEqual({
      status: 'failed',
      code: 'model_error',
      message: 'The model rejected the request (HTTP 400).',
    });
    expect(bot.fallbacks[0]!.requests).toHaveLength(0);
  });

  it('a stream that breaks after text was shown fails as before: no switch, no second answer', async () => {
    bot = await startFallbackCore({ overrides: { LLM_TIMEOUT_MS: '1000' } });
    // Two sentences in, the stream goes silent until the client gives up on it (the idle limit).
    bot.primary.script({ content: 'One sentence. Then another one that never ends', pauseAt: { chars: 21 } });

    const { outcome, events } = await bot.ask('Tell me something long.');

    expect(events.filter((e) => e.type === 'answer_delta').length).toBeGreaterThan(0);
    expect(outcome).toEqual({
      status: 'failed',
      code: 'model_unavailable',
      message: 'The model stopped sending its answer. Please try again in a moment.',
    });
    expect(bot.fallbacks[0]!.requests).toHaveLength(0);
  });

  it('goes down the list in order: primary 503, first fallback unreachable, the second answers', async () => {
    const gone = await startFakeOpenAI();
    await gone.close();
    bot = await startFallbackCore({ leadingFallbacks: [`gone@${gone.url}`] });
    bot.primary.script({ status: 503 });
    bot.fallbacks[0]!.script({ content: 'The last one standing.' });

    const { outcome, events } = await bot.ask('Anyone?');

    expect(outcome).toMatchObject(answered('The last one standing.'));
    expect(notices(events)).toEqual([
      `The primary model (${bot.name(0)}) was unavailable; answered by ${bot.name(1)}.`,
    ]);
  });

  it('when every endpoint fails the question fails, saying so; when every circuit is open the primary is tried anyway', async () => {
    bot = await startFallbackCore();
    bot.primary.script({ status: 503 }, { content: 'Back again.' });
    bot.fallbacks[0]!.script({ status: 502 });

    const first = await bot.ask('Hello?');
    expect(first.outcome).toMatchObject({
      status: 'failed',
      code: 'model_unavailable',
      message:
        'The model server failed (HTTP 503). The fallback models are unavailable too. Please try again in a moment.',
    });

    const second = await bot.ask('Hello again?');
    expect(second.outcome).toMatchObject(answered('Back again.'));
    expect(bot.primary.requests).toHaveLength(2);
    expect(bot.fallbacks[0]!.requests).toHaveLength(1);
  });

  it('keeps a failed primary out for LLM_FALLBACK_COOLDOWN_MS, then tries it once and goes back to it', async () => {
    bot = await startFallbackCore({ overrides: { LLM_FALLBACK_COOLDOWN_MS: '1000' } });
    const fallback = bot.fallbacks[0]!;
    bot.primary.script({ status: 503 });
    fallback.script({ content: 'Fallback 1.' }, { content: 'Fallback 2.' });

    expect((await bot.ask('One?')).outcome).toMatchObject(answered('Fallback 1.'));
    const second = await bot.ask('Two?');
    expect(second.outcome).toMatchObject(answered('Fallback 2.'));
    expect(bot.primary.requests).toHaveLength(1); // the open circuit skipped it
    expect(notices(second.events)).toHaveLength(1);

    bot.advance(999);
    fallback.script({ content: 'Fallback 3.' });
    expect((await bot.ask('Three?')).outcome).toMatchObject(answered('Fallback 3.'));
    expect(bot.primary.requests).toHaveLength(1);

    bot.advance(1);
    bot.primary.script({ content: 'Primary is back.' }, { content: 'Primary again.' });
    const fourth = await bot.ask('Four?');
    expect(fourth.outcome).toMatchObject(answered('Primary is back.'));
    expect(notices(fourth.events)).toEqual([]);
    expect((await bot.ask('Five?')).outcome).toMatchObject(answered('Primary again.'));
    expect(bot.primary.requests).toHaveLength(3);
    expect(fallback.requests).toHaveLength(3);
  });

  it('counts each request a fallback answered on /metrics, by primary and fallback', async () => {
    bot = await startFallbackCore();
    bot.primary.script({ status: 503 });
    bot.fallbacks[0]!.script({ content: 'One.' }, { content: 'Two.' });
    await bot.ask('One?');
    await bot.ask('Two?');

    const text = await bot.scrape();
    const series = `thinkthread_model_fallbacks_total{from="${bot.name(0)}",to="${bot.name(1)}"}`;
    expect(text).toContain(`\n${series} 2\n`);
  });

  it('records the model that answered, also when the primary failed midway through the question', async () => {
    bot = await startFallbackCore();
    bot.primary.script({ status: 503 });
    bot.fallbacks[0]!.script({ content: 'One.' }, { content: 'Two.' });
    await bot.ask('One?');
    await bot.ask('Two?');

    const records = await bot.questionRecords(2);
    // The first started on the primary and was answered by the fallback; the second started there.
    expect(records.map((r) => r.model)).toEqual(['fallback-1', 'fallback-1']);
  });
});
