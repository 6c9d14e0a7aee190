import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../../../src/core/agent/create-agent.js';
import type { AgentEvent } from '../../../src/core/agent/events.js';
import { LENGTH_CUT_FAILURE, LENGTH_CUT_NOTE } from '../../../src/core/agent/notes.js';
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

  async function ask() {
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
        AGENT_MAX_STEPS: 8,
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

  it('delivers a cut final answer flagged as truncated, with the model’s own text', async () => {
    fake.script({ ...say.answer('The answer is forty'), finishReason: cut });
    const { result, events } = await ask();
    expect(result).toMatchObject({ status: 'answered', text: 'The answer is forty', truncated: 'length' });
    expect(events.at(-1)).toMatchObject({ type: 'answer', text: 'The answer is forty', truncated: 'length' });
  });

  it('leaves a complete answer unflagged', async () => {
    fake.script(say.answer('Forty-two.'));
    const { result, events } = await ask();
    expect(result).toMatchObject({ status: 'answered', text: 'Forty-two.' });
    expect('truncated' in result).toBe(false);
    expect('truncated' in events.at(-1)!).toBe(false);
  });

  it('does not run a tool call whose arguments were cut, and says why', async () => {
    fake.script({ ...say.halfCall(), finishReason: cut });
    const { result, events } = await ask();
    expect(result).toEqual({ status: 'failed', code: 'invalid_output', message: LENGTH_CUT_FAILURE });
    expect(events.at(-1)).toMatchObject({ type: 'error', message: LENGTH_CUT_FAILURE });
    expect(events.some((e) => e.type === 'action' || e.type === 'observation')).toBe(false);
    expect(toolRuns).toBe(0);
    expect(fake.requests).toHaveLength(1);
  });

  it('fails clearly when the limit is hit before any text', async () => {
    fake.script({ content: '', finishReason: cut });
    const { result } = await ask();
    expect(result).toEqual({ status: 'failed', code: 'invalid_output', message: LENGTH_CUT_FAILURE });
    expect(fake.requests).toHaveLength(1);
  });

  if (protocol === 'react') {
    it('delivers cut prose without the format’s labels as a truncated answer, not a format reminder', async () => {
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
