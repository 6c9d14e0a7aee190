import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../../../src/core/agent/create-agent.js';
import type { AgentEvent } from '../../../src/core/agent/events.js';
import { LENGTH_CUT_FAILURE, LENGTH_CUT_NOTE, LENGTH_RETRY } from '../../../src/core/agent/notes.js';
import { createOpenAIChatModel } from '../../../src/core/llm/openai-chat-model.js';
import { loadPrompts } from '../../../src/core/prompts.js';
import { defineTool } from '../../../src/core/tools/define-tool.js';
import { type FakeOpenAI, type ScriptStep, startFakeOpenAI } from '../../fakes/openai-server.js';
import { startTestCore, type TestCore } from '../../helpers/test-core.js';

const prompts = loadPrompts('prompts');
const cut = 'length';

/** The model's reply in each protocol: a final answer, and a tool call whose arguments end mid-way. */
const dialects = {
  tools: {
    answer: (text: string): ScriptStep => ({ content: text }),
    halfCall: (): ScriptStep => ({ content: '', toolCalls: [{ name: 'add', arguments: '{"a": 1, "b' }] }),
  },
  react: {
    answer: (text: string): ScriptStep => ({ content: `Thought: I know.\nFinal Answer: ${text}` }),
    halfCall: (): ScriptStep => ({ content: 'Thought: Add them.\nAction: add\nAction Input: {"a": 1, "b' }),
  },
} as const;

describe.each([
  ['tools', true],
  ['tools', false],
  ['react', true],
  ['react', false],
] as const)('a reply cut at the length limit (%s protocol, streamed: %s)', (protocol, stream) => {
  const say = dialects[protocol];
  let fake: FakeOpenAI;
  let toolRuns: number;

  beforeEach(async () => {
    fake = await startFakeOpenAI();
    toolRuns = 0;
  });
  afterEach(async () => {
    await fake.close();
  });

  async function ask(maxSteps = 8) {
    const add = defineTool({
      name: 'add',
      description: 'Adds two numbers.',
      input: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => {
        toolRuns++;
        return String(a + b);
      },
    });
    const agent = createAgent({
      model: createOpenAIChatModel({ baseURL: fake.url, model: 'm', maxRetries: 0, timeoutMs: 5000, stream }),
      tools: [add],
      prompts,
      settings: {
        AGENT_PROTOCOL: protocol,
        AGENT_MAX_STEPS: maxSteps,
        TOOL_TIMEOUT_MS: 2000,
        TOOL_CONCURRENCY: 4,
        RUN_TIMEOUT_MS: 10_000,
        ANSWER_MAX_CHARS: 40_000,
      },
    });
    const events: AgentEvent[] = [];
    const result = await agent.run({ message: 'q', author: 'a', context: { turns: [] } }, (e) =>
      events.push(e),
    );
    return { result, events };
  }

  /** The message the retry added: the request's last, from the user, asking for a shorter reply. */
  function retryNote(request: number): string {
    const last = fake.requests[request]!.body.messages.at(-1)!;
    expect(last.role).toBe('user');
    return String(last.content);
  }

  /** No text of a cut reply reached the asker: nothing streamed stayed (a reset follows it) and no answer. */
  function nothingDelivered(events: AgentEvent[], text: string) {
    expect(events.some((e) => e.type === 'answer')).toBe(false);
    const lastDelta = events.findLastIndex((e) => e.type === 'answer_delta');
    const lastReset = events.findLastIndex((e) => e.type === 'answer_reset');
    expect(lastReset).toBeGreaterThanOrEqual(lastDelta);
    expect(JSON.stringify(events.filter((e) => e.type !== 'answer_delta'))).not.toContain(text);
  }

  it('delivers a cut final answer flagged as truncated, with the model’s own text', async () => {
    fake.script({ ...say.answer('The answer is forty'), finishReason: cut });
    const { result, events } = await ask();
    expect(result).toMatchObject({ status: 'answered', text: 'The answer is forty', truncated: 'length' });
    expect(events.at(-1)).toMatchObject({ type: 'answer', text: 'The answer is forty', truncated: 'length' });
    expect(fake.requests).toHaveLength(1);
  });

  it('leaves a complete answer unflagged', async () => {
    fake.script(say.answer('Forty-two.'));
    const { result, events } = await ask();
    expect(result).toMatchObject({ status: 'answered', text: 'Forty-two.' });
    expect('truncated' in result).toBe(false);
    expect('truncated' in events.at(-1)!).toBe(false);
  });

  it('does not run a tool call whose arguments were cut, and retries once asking for brevity', async () => {
    fake.script({ ...say.halfCall(), finishReason: cut }, say.answer('Forty-two.'));
    const { result, events } = await ask();
    expect(result).toMatchObject({ status: 'answered', text: 'Forty-two.', steps: 2 });
    expect('truncated' in result).toBe(false);
    expect(events.some((e) => e.type === 'action' || e.type === 'observation')).toBe(false);
    expect(toolRuns).toBe(0);
    expect(fake.requests).toHaveLength(2);
    expect(retryNote(1)).toMatch(protocol === 'tools' ? LENGTH_RETRY : /cut off at the length limit/);
    if (protocol === 'react') {
      // The cut reply is shown back, and the format is repeated.
      expect(retryNote(1)).toMatch(/Final Answer:/);
      expect(fake.requests[1]!.body.messages.at(-2)).toMatchObject({ role: 'assistant' });
    }
  });

  it('fails clearly, running nothing, when the retry is cut too', async () => {
    fake.script({ ...say.halfCall(), finishReason: cut }, { ...say.halfCall(), finishReason: cut });
    const { result, events } = await ask();
    expect(result).toEqual({ status: 'failed', code: 'invalid_output', message: LENGTH_CUT_FAILURE });
    expect(events.at(-1)).toMatchObject({ type: 'error', message: LENGTH_CUT_FAILURE });
    expect(toolRuns).toBe(0);
    expect(fake.requests).toHaveLength(2);
  });

  it('retries once per run: a second cut later in the run fails', async () => {
    fake.script(
      { ...say.halfCall(), finishReason: cut },
      protocol === 'tools'
        ? { content: '', toolCalls: [{ name: 'add', arguments: '{"a": 1, "b": 2}' }] }
        : { content: 'Thought: Add them.\nAction: add\nAction Input: {"a": 1, "b": 2}' },
      { ...say.halfCall(), finishReason: cut },
    );
    const { result } = await ask();
    expect(result).toEqual({ status: 'failed', code: 'invalid_output', message: LENGTH_CUT_FAILURE });
    expect(toolRuns).toBe(1);
    expect(fake.requests).toHaveLength(3);
  });

  it('fails at once when the cut reply came at the last step (no step left to retry)', async () => {
    fake.script({ content: '', finishReason: cut }, say.answer('never asked'));
    const { result } = await ask(1);
    expect(result).toEqual({ status: 'failed', code: 'invalid_output', message: LENGTH_CUT_FAILURE });
    expect(fake.requests).toHaveLength(1);
  });

  it('retries when the limit is hit before any text, and fails clearly when it is hit again', async () => {
    fake.script({ content: '', finishReason: cut }, { content: '', finishReason: cut });
    const { result } = await ask();
    expect(result).toEqual({ status: 'failed', code: 'invalid_output', message: LENGTH_CUT_FAILURE });
    expect(fake.requests).toHaveLength(2);
  });

  it('retries a cut reply that only announces its next step, and never delivers it', async () => {
    const plan = 'Let me look that up. I will search for the population of';
    fake.script({ content: plan, finishReason: cut }, say.answer('About 2.1 million.'));
    const { result, events } = await ask();
    expect(result).toMatchObject({ status: 'answered', text: 'About 2.1 million.' });
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.body.messages.at(-2)).toMatchObject({ role: 'assistant', content: plan });
    expect(JSON.stringify(events.filter((e) => e.type !== 'answer_delta'))).not.toContain('Let me look');
  });

  if (protocol === 'tools') {
    it('delivers cut text that is not a plan as the answer so far, flagged (the protocol’s answer is its text)', async () => {
      fake.script({ content: 'Paris is the capital of France, and it', finishReason: cut });
      const { result } = await ask();
      expect(result).toMatchObject({
        status: 'answered',
        text: 'Paris is the capital of France, and it',
        truncated: 'length',
      });
      expect(fake.requests).toHaveLength(1);
    });
  }

  if (protocol === 'react') {
    it.each([
      ['mid-sentence', 'Paris is the capital of France, and it'],
      ['right after a step marker', 'Thought: I should check the capital first.\nAction 2'],
      ['at the end of a sentence', 'Paris is the capital of France.'],
      ['inside a Thought', 'Thought: The capital of France is Paris, which has a population of'],
    ])(
      'does not deliver unlabelled prose cut %s: it is retried, then the retry’s answer is delivered',
      async (_name, text) => {
        fake.script({ content: text, finishReason: cut }, say.answer('Paris.'));
        const { result, events } = await ask();
        expect(result).toMatchObject({ status: 'answered', text: 'Paris.' });
        expect('truncated' in result).toBe(false);
        expect(fake.requests).toHaveLength(2);
        expect(retryNote(1)).toMatch(/cut off at the length limit/);
        expect(JSON.stringify(events.filter((e) => e.type !== 'answer_delta'))).not.toContain(text);
      },
    );

    it('fails clearly, delivering none of it, when the retry is cut mid-sentence too', async () => {
      const text = 'Paris is the capital of France, and it';
      fake.script({ content: text, finishReason: cut }, { content: text, finishReason: cut });
      const { result, events } = await ask();
      expect(result).toEqual({ status: 'failed', code: 'invalid_output', message: LENGTH_CUT_FAILURE });
      nothingDelivered(events, text);
      expect(fake.requests).toHaveLength(2);
    });
  }
});

describe('a cut answer through the assistant', () => {
  let t: TestCore;
  afterEach(() => t.close());

  it('is delivered as the model wrote it, and remembered with the length-limit note', async () => {
    t = await startTestCore();
    t.fake.script({ content: 'Chapter one begins with', finishReason: cut }, { content: 'Sure.' });
    const events: AgentEvent[] = [];
    const first = await t.core.assistant.ask({ key: 'c', author: 'alice', text: 'tell a story' }, (e) =>
      events.push(e),
    );
    expect(first).toMatchObject({ status: 'answered', text: 'Chapter one begins with', truncated: 'length' });
    expect(events.at(-1)).toMatchObject({
      type: 'answer',
      text: 'Chapter one begins with',
      truncated: 'length',
    });

    await t.core.assistant.ask({ key: 'c', author: 'alice', text: 'go on' }, () => {});
    const remembered = t.fake.requests[1]!.body.messages.find((m) => m.role === 'assistant');
    expect(remembered?.content).toBe(`Chapter one begins with${LENGTH_CUT_NOTE}`);
  });
});
