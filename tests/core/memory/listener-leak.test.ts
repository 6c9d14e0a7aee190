import { getEventListeners } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from '../../../src/core/agent/create-agent.js';
import { createOpenAIChatModel } from '../../../src/core/llm/openai-chat-model.js';
import { createSummarizer } from '../../../src/core/memory/summarizer.js';
import { loadPrompts } from '../../../src/core/prompts.js';
import { type FakeOpenAI, startFakeOpenAI } from '../../fakes/openai-server.js';

const prompts = loadPrompts('prompts');
const ROUNDS = 1000;
/** Heap may grow by this much over the rounds after warm-up (a leak of a listener and its closures per call grows more). */
const HEAP_SLACK_BYTES = 16 * 1024 * 1024;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapAfterGc = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const abortListeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;
const model = (fake: FakeOpenAI) =>
  createOpenAIChatModel({ baseURL: fake.url, model: 'm', maxRetries: 0, timeoutMs: 10_000, stream: false });

describe('abort listeners over long runs', () => {
  let fake: FakeOpenAI;
  afterEach(() => fake.close());

  it('stay flat on the signal shared by a thousand summaries, and so does the heap', async () => {
    fake = await startFakeOpenAI({ fallback: () => ({ content: 'Alice runs Atlas.' }) });
    const summarizer = createSummarizer({ model: model(fake), prompts, maxTokens: 200 });
    const shared = new AbortController().signal;
    const turns = [{ author: 'alice', question: 'What is my project?', answer: 'Atlas.' }];
    const summarize = () => summarizer.summarize({ previous: undefined, turns }, shared);

    for (let i = 0; i < 100; i++) await summarize();
    fake.requests.length = 0;
    const heap = heapAfterGc();
    for (let i = 0; i < ROUNDS; i++) {
      await summarize();
      fake.requests.length = 0;
    }
    expect(abortListeners(shared)).toBe(0);
    expect(heapAfterGc() - heap).toBeLessThan(HEAP_SLACK_BYTES);
  });

  it('leave nothing on the signals of a thousand runs cancelled while the model thinks', async () => {
    fake = await startFakeOpenAI({ fallback: () => ({ hang: true }) });
    const agent = createAgent({
      model: model(fake),
      tools: [],
      prompts,
      settings: {
        AGENT_PROTOCOL: 'tools',
        AGENT_MAX_STEPS: 4,
        TOOL_TIMEOUT_MS: 1000,
        TOOL_CONCURRENCY: 1,
        RUN_TIMEOUT_MS: 60_000,
        ANSWER_MAX_CHARS: 1000,
      },
    });
    // One long-lived signal (a shutdown, say) that every run's own signal follows.
    const shutdown = new AbortController().signal;
    const cancelledRun = async () => {
      const own = new AbortController();
      const onShutdown = () => own.abort();
      shutdown.addEventListener('abort', onShutdown, { once: true });
      const run = agent.run({ message: 'q', author: 'a', context: { turns: [] }, signal: own.signal });
      await fake.waitForRequests(1);
      fake.requests.length = 0;
      own.abort();
      const result = await run;
      shutdown.removeEventListener('abort', onShutdown);
      return { status: result.status, left: abortListeners(own.signal) };
    };

    for (let i = 0; i < 100; i++) await cancelledRun();
    const heap = heapAfterGc();
    const outcomes = new Map<string, number>();
    for (let i = 0; i < ROUNDS; i++) {
      const { status, left } = await cancelledRun();
      const key = `${status}, ${left} left`;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    }
    expect(Object.fromEntries(outcomes)).toEqual({ 'cancelled, 0 left': ROUNDS });
    expect(abortListeners(shutdown)).toBe(0);
    expect(heapAfterGc() - heap).toBeLessThan(HEAP_SLACK_BYTES);
  });
});
