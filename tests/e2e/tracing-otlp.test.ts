import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import { type OtlpReceiver, startOtlpReceiver } from '../fakes/otlp-receiver.js';
import { spawnBot } from '../helpers/spawn-bot.js';

// Starting a bot process under a loaded machine can take seconds.
describe('traces from the running bot to an OTLP/HTTP receiver', { timeout: 60_000 }, () => {
  let fake: FakeOpenAI;
  let receiver: OtlpReceiver;
  beforeEach(async () => {
    fake = await startFakeOpenAI();
    receiver = await startOtlpReceiver();
  });
  afterEach(async () => {
    await fake.close();
    await receiver.close();
  });

  it('sends each question as one trace, flushed when the bot shuts down', async () => {
    fake.script(
      {
        content: null,
        toolCalls: [
          { name: 'calculator', arguments: { expression: '6*7' } },
          { name: 'current_time', arguments: { timezone: 'UTC' } },
        ],
        usage: { prompt_tokens: 120, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 64 } },
      },
      { content: 'It is 42.', usage: { prompt_tokens: 200, completion_tokens: 8 } },
    );
    const bot = spawnBot({
      OPENAI_BASE_URL: fake.url,
      LLM_MAX_RETRIES: '0',
      LOG_LEVEL: 'silent',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: 'thinkthread-e2e',
      // The batch would wait 5 s before sending; shutdown must flush it anyway, so make the wait long.
      OTEL_BSP_SCHEDULE_DELAY: '60000',
    });
    bot.child.stdin!.end('What is 6 * 7, and the time?\n');
    expect(await bot.exited).toBe(0);
    expect(bot.stdout()).toContain('It is 42.');

    const { spans } = receiver;
    const root = spans.find((s) => s.name === 'invoke_agent thinkthread');
    expect(root).toBeDefined();
    expect(root!.parentSpanId).toBeUndefined();
    expect(root!.resource['service.name']).toBe('thinkthread-e2e');
    expect(root!.attributes).toMatchObject({
      'thinkthread.platform': 'console',
      'thinkthread.outcome': 'answered',
    });
    expect(String(root!.attributes['thinkthread.channel'])).toMatch(/^[0-9a-f]{16}$/);
    const trace = spans.filter((s) => s.traceId === root!.traceId);
    const children = trace.filter((s) => s.parentSpanId === root!.spanId).map((s) => s.name);
    expect(children).toEqual(
      expect.arrayContaining([
        'thinkthread.queue_wait',
        'thinkthread.memory.load',
        'execute_tool calculator',
        'execute_tool current_time',
      ]),
    );
    const chats = trace.filter((s) => s.name.startsWith('chat '));
    expect(
      chats.map((s) => [
        s.attributes['gen_ai.usage.input_tokens'],
        s.attributes['gen_ai.usage.output_tokens'],
      ]),
    ).toEqual([
      [120, 20],
      [200, 8],
    ]);
    expect(chats[0]!.attributes['gen_ai.usage.cache_read.input_tokens']).toBe(64);
    expect(receiver.contentTypes.every((t) => t.startsWith('application/json'))).toBe(true);
    expect(JSON.stringify(spans)).not.toContain('6 * 7');
  });
});
