import { context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { channelHash, setTraceContent } from '../../../src/core/tracing/spans.js';
import { startTestCore, type TestCore } from '../../helpers/test-core.js';

const KEY = 'slack:T0ACME01:C0GENERAL';
const QUESTION = 'What is 6 * 7, and the time in Not/AZone?';

describe('a question as a trace (in-memory exporter)', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  let test: TestCore | undefined;
  beforeAll(() => provider.register());
  afterAll(async () => {
    await provider.shutdown();
    trace.disable();
    context.disable();
  });
  afterEach(async () => {
    await test?.close();
    test = undefined;
    exporter.reset();
    setTraceContent(false);
  });

  /** Asks a question whose model calls two tools, then answers; resolves with the spans recorded. */
  async function askWithTwoTools(): Promise<ReadableSpan[]> {
    test = await startTestCore({ MEMORY_MAX_TOKENS: '100000' });
    test.fake.script(
      {
        content: null,
        toolCalls: [
          { name: 'calculator', arguments: { expression: '6*7' } },
          { name: 'current_time', arguments: { timezone: 'Not/AZone' } },
        ],
        usage: { prompt_tokens: 120, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 100 } },
      },
      { content: 'It is 42.', usage: { prompt_tokens: 200, completion_tokens: 8 } },
    );
    const outcome = await test.core.assistant.ask(
      {
        key: KEY,
        author: 'Alice',
        text: QUESTION,
        asker: { platform: 'slack', userId: 'U0ALICE01', principal: 'slack:T0ACME01:U0ALICE01', dm: false },
      },
      () => {},
    );
    expect(outcome.status).toBe('answered');
    await provider.forceFlush();
    return exporter.getFinishedSpans();
  }

  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

  it('is one trace: the question, its queue wait and memory load, two model calls and two tool calls', async () => {
    const spans = await askWithTwoTools();
    const root = spans.find((s) => s.name === 'invoke_agent thinkthread');
    expect(root).toBeDefined();
    expect(parentOf(root!)).toBeUndefined();
    expect(new Set(spans.map((s) => s.spanContext().traceId))).toEqual(
      new Set([root!.spanContext().traceId]),
    );
    expect(root!.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'thinkthread.platform': 'slack',
      'thinkthread.channel': channelHash(KEY),
      'thinkthread.outcome': 'answered',
    });
    const children = spans.filter((s) => parentOf(s) === root!.spanContext().spanId).map((s) => s.name);
    expect(children.sort()).toEqual(
      [
        'chat gpt-4o-mini',
        'chat gpt-4o-mini',
        'execute_tool calculator',
        'execute_tool current_time',
        'thinkthread.memory.load',
        'thinkthread.queue_wait',
      ].sort(),
    );
    const chats = spans.filter((s) => s.name.startsWith('chat '));
    expect(chats.map((s) => s.attributes)).toEqual([
      expect.objectContaining({
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'gpt-4o-mini',
        'gen_ai.usage.input_tokens': 120,
        'gen_ai.usage.output_tokens': 20,
        'gen_ai.usage.cache_read.input_tokens': 100,
      }),
      expect.objectContaining({ 'gen_ai.usage.input_tokens': 200, 'gen_ai.usage.output_tokens': 8 }),
    ]);
    const calculator = spans.find((s) => s.name === 'execute_tool calculator')!;
    const time = spans.find((s) => s.name === 'execute_tool current_time')!;
    expect(calculator.attributes['gen_ai.tool.name']).toBe('calculator');
    expect(calculator.status.code).not.toBe(2);
    expect(time.status.code).toBe(2);
    expect(time.attributes['error.type']).toBe('tool_error');
    // Neither the question, the answer, the tool output nor the raw channel or person is in any span.
    const everything = JSON.stringify(spans.map((s) => s.attributes));
    for (const secret of ['6 * 7', 'It is 42', '6*7', 'C0GENERAL', 'U0ALICE01', 'Unknown time zone'])
      expect(everything).not.toContain(secret);
  });

  it('carries the messages and tool input and output only with OTEL_CAPTURE_CONTENT', async () => {
    setTraceContent(true);
    const spans = await askWithTwoTools();
    const root = spans.find((s) => s.name === 'invoke_agent thinkthread')!;
    expect(String(root.attributes['gen_ai.input.messages'])).toContain(QUESTION);
    expect(String(root.attributes['gen_ai.output.messages'])).toContain('It is 42.');
    const calculator = spans.find((s) => s.name === 'execute_tool calculator')!;
    expect(calculator.attributes['gen_ai.tool.call.arguments']).toBe('{"expression":"6*7"}');
    expect(String(calculator.attributes['gen_ai.tool.call.result'])).toContain('42');
  });

  it('has a span for compacting a channel’s memory, with the summary’s model call inside it', async () => {
    test = await startTestCore(
      { MEMORY_MAX_TOKENS: '60', MEMORY_KEEP_TURNS: '1' },
      {
        fallback: () => ({
          content: 'A short answer that takes up some room in the memory of this channel.',
        }),
      },
    );
    const asker = {
      platform: 'slack',
      userId: 'U0ALICE01',
      principal: 'slack:T0ACME01:U0ALICE01',
      dm: false,
    };
    for (const text of ['A first question that is long enough to count.', 'A second question, also long.'])
      await test.core.assistant.ask({ key: KEY, author: 'Alice', text, asker }, () => {});
    await test.core.close();
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans();
    const compact = spans.find((s) => s.name === 'thinkthread.memory.compact');
    expect(compact?.attributes).toMatchObject({ 'thinkthread.channel': channelHash(KEY) });
    expect(Number(compact?.attributes['thinkthread.folded_turns'])).toBeGreaterThan(0);
    const inside = spans.filter((s) => parentOf(s) === compact!.spanContext().spanId).map((s) => s.name);
    expect(inside).toEqual(['chat gpt-4o-mini']);
  });
});
