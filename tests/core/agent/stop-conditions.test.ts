import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../../../src/core/agent/create-agent.js';
import { firstStop, maxSteps, type StopCondition } from '../../../src/core/agent/stop-conditions.js';
import { createOpenAIChatModel } from '../../../src/core/llm/openai-chat-model.js';
import { loadPrompts } from '../../../src/core/prompts.js';
import { defineTool } from '../../../src/core/tools/define-tool.js';
import { type FakeOpenAI, startFakeOpenAI } from '../../fakes/openai-server.js';

const echoTool = defineTool({
  name: 'echo',
  description: 'Echoes its text.',
  input: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});
const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

describe('stop conditions', () => {
  it('maxSteps(n) makes step n the last, not earlier', () => {
    const stop = maxSteps(3);
    expect(stop({ step: 2, usage })).toBeUndefined();
    expect(stop({ step: 3, usage })).toMatchObject({
      kind: 'max_steps',
      message: expect.stringMatching(/3 steps/),
    });
  });

  it('firstStop gives the first reason in list order', () => {
    const budget: StopCondition = ({ usage: u }) =>
      u.totalTokens >= 100 ? { kind: 'token_budget', message: 'Out of tokens.' } : undefined;
    const conditions = [budget, maxSteps(2)];
    expect(firstStop(conditions, { step: 1, usage })).toBeUndefined();
    expect(firstStop(conditions, { step: 2, usage: { ...usage, totalTokens: 100 } })?.kind).toBe(
      'token_budget',
    );
    expect(firstStop(conditions, { step: 2, usage })?.kind).toBe('max_steps');
  });
});

describe('agent loop with injected stop conditions', () => {
  let fake: FakeOpenAI;
  beforeEach(async () => {
    fake = await startFakeOpenAI();
  });
  afterEach(async () => {
    await fake.close();
  });

  it('a token budget makes the next step the last: the model is asked to answer without tools', async () => {
    fake.script(
      {
        content: '',
        toolCalls: [{ name: 'echo', arguments: { text: 'one' } }],
        usage: { prompt_tokens: 90, completion_tokens: 20 },
      },
      { content: 'Done with what I have.' },
    );
    const budget: StopCondition = ({ usage: spent }) =>
      spent.totalTokens >= 100 ? { kind: 'token_budget', message: 'I ran out of budget.' } : undefined;
    const agent = createAgent({
      model: createOpenAIChatModel({
        baseURL: fake.url,
        model: 'm',
        maxRetries: 0,
        timeoutMs: 5000,
        stream: true,
      }),
      tools: [echoTool],
      prompts: loadPrompts('prompts'),
      settings: {
        AGENT_PROTOCOL: 'tools',
        AGENT_MAX_STEPS: 8,
        TOOL_TIMEOUT_MS: 2000,
        TOOL_CONCURRENCY: 4,
        RUN_TIMEOUT_MS: 10_000,
        ANSWER_MAX_CHARS: 40_000,
      },
      stopConditions: [budget],
    });
    const result = await agent.run({ message: 'q', author: 'a', context: { turns: [] } });
    expect(result).toMatchObject({ status: 'answered', text: 'Done with what I have.', steps: 2 });
    expect(fake.requests[0]!.body.tool_choice).toBe('auto');
    expect(fake.requests[1]!.body.tool_choice).toBe('none');
    expect(JSON.stringify(fake.requests[1]!.body.messages.at(-1))).toMatch(/limit/);
  });
});
