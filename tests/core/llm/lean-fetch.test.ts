import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIChatModel } from '../../../src/core/llm/openai-chat-model.js';
import { type FakeOpenAI, startFakeOpenAI } from '../../fakes/openai-server.js';
import { waitUntil } from '../../helpers/wait-until.js';

const modelAt = (url: string, stream: boolean) =>
  createOpenAIChatModel({ baseURL: url, model: 'm', maxRetries: 0, timeoutMs: 10_000, stream });
const hi = [{ role: 'user' as const, content: 'hi' }];

describe('the model client over undici (leanFetch)', () => {
  let fake: FakeOpenAI | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('keeps its connections for call after call, streamed and whole, instead of opening one per call', async () => {
    fake = await startFakeOpenAI({
      fallback: (r) => ({ content: `answer ${r.body.stream ? 'streamed' : 'whole'}` }),
    });
    const answers: string[] = [];
    const ask = async (stream: boolean) =>
      answers.push((await modelAt(fake!.url, stream).complete({ messages: hi })).content);
    await ask(true);
    await ask(false);
    const warm = fake.connections().opened;
    for (const stream of [true, false, true, true, false, false, true, false]) await ask(stream);
    expect(answers.slice(-2)).toEqual(['answer streamed', 'answer whole']);
    expect(answers).toHaveLength(10);
    expect(fake.connections().opened).toBe(warm);
  });

  it('sends what the SDK builds: the key as a bearer token, JSON, and the SDK’s own headers', async () => {
    fake = await startFakeOpenAI({ fallback: () => ({ content: 'ok' }) });
    const model = createOpenAIChatModel({
      baseURL: fake.url,
      apiKey: 'sk-test-lean-123456',
      model: 'gpt-test',
      maxRetries: 0,
      timeoutMs: 10_000,
      stream: true,
    });
    expect((await model.complete({ messages: hi })).content).toBe('ok');
    const { headers, body, path } = fake.requests[0]!;
    expect(path).toBe('/v1/chat/completions');
    expect(headers.authorization).toBe('Bearer sk-test-lean-123456');
    expect(headers['content-type']).toBe('application/json');
    expect(headers['user-agent']).toMatch(/^OpenAI\/JS /);
    expect(headers['x-stainless-retry-count']).toBe('0');
    expect(body).toMatchObject({
      model: 'gpt-test',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
  });

  it('stops a streamed answer mid-way when the run is cancelled, and hangs up on the server', async () => {
    fake = await startFakeOpenAI();
    fake.script({ content: 'a long answer that never finishes', pauseAt: { chars: 6 } });
    const controller = new AbortController();
    const seen: string[] = [];
    const pending = modelAt(fake.url, true).complete({
      messages: hi,
      signal: controller.signal,
      onTextDelta: (text) => {
        seen.push(text);
        if (seen.join('').length >= 6) controller.abort();
      },
    });
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen.join('')).toBe('a long');
    // The server never closes a connection itself: one closed means the client hung up on the paused stream.
    await waitUntil(
      () => {
        const { opened, open } = fake!.connections();
        return opened - open >= 1;
      },
      { what: 'the client to hang up' },
    );
    fake.script({ content: 'next' });
    expect((await modelAt(fake.url, true).complete({ messages: hi })).content).toBe('next');
  });
});
