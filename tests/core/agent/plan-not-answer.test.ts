/**
 * Issue 32 in the loop: a plan announced as prose is never delivered as the answer. Before the last step it
 * gets the format reminder; at the last step the run ends with the step limit's message, as when the model
 * still asks for a tool there.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../../../src/core/agent/create-agent.js';
import type { AgentEvent } from '../../../src/core/agent/events.js';
import { createOpenAIChatModel } from '../../../src/core/llm/openai-chat-model.js';
import { loadPrompts } from '../../../src/core/prompts.js';
import { defineTool } from '../../../src/core/tools/define-tool.js';
import { type FakeOpenAI, startFakeOpenAI } from '../../fakes/openai-server.js';

const prompts = loadPrompts('prompts');
const stepLimit = (n: number) => `I could not finish within ${n} steps; please ask again more specifically.`;

describe.each([true, false])('a plan announced as prose (text protocol, streamed: %s)', (stream) => {
  let fake: FakeOpenAI;
  let toolRuns: number;

  beforeEach(async () => {
    fake = await startFakeOpenAI();
    toolRuns = 0;
  });
  afterEach(async () => {
    await fake.close();
  });

  async function ask(maxSteps: number) {
    const search = defineTool({
      name: 'web_search',
      description: 'Searches the web.',
      input: z.object({ query: z.string() }),
      execute: () => {
        toolRuns++;
        return 'Paris has about 2.1 million inhabitants.';
      },
    });
    const agent = createAgent({
      model: createOpenAIChatModel({ baseURL: fake.url, model: 'm', maxRetries: 0, timeoutMs: 5000, stream }),
      tools: [search],
      prompts,
      settings: {
        AGENT_PROTOCOL: 'react',
        AGENT_MAX_STEPS: maxSteps,
        TOOL_TIMEOUT_MS: 2000,
        TOOL_CONCURRENCY: 4,
        RUN_TIMEOUT_MS: 10_000,
        ANSWER_MAX_CHARS: 40_000,
      },
    });
    const events: AgentEvent[] = [];
    const result = await agent.run(
      { message: 'How many people live in Paris?', author: 'a', context: { turns: [] } },
      (e) => events.push(e),
    );
    return { result, events };
  }

  /** Nothing of `text` reached the asker: no answer carries it, and whatever streamed was taken back. */
  function notDelivered(events: AgentEvent[], text: string) {
    for (const e of events) if (e.type === 'answer') expect(e.text).not.toContain(text);
    const lastDelta = events.findLastIndex((e) => e.type === 'answer_delta');
    const lastReset = events.findLastIndex((e) => e.type === 'answer_reset');
    const lastAnswer = events.findLastIndex((e) => e.type === 'answer');
    // A delta after the last reset belongs to the answer finally given, never to the plan.
    if (lastDelta > lastReset) {
      const after = events.slice(lastReset + 1, lastAnswer);
      const streamed = after.map((e) => (e.type === 'answer_delta' ? e.text : '')).join('');
      expect(streamed).not.toContain(text);
    }
  }

  it.each([
    ['opens with a plan', 'Let me look that up.'],
    ['announces its next step last', 'Paris is a big city. I will search for its population.'],
    ['stops on a bare step marker', 'Thought: I should search for it.\nAction 2'],
  ])('%s: gets the format reminder, and the answer after it is delivered', async (_name, plan) => {
    fake.script({ content: plan }, { content: 'Thought: I know it.\nFinal Answer: About 2.1 million.' });
    const { result, events } = await ask(8);
    expect(result).toMatchObject({ status: 'answered', text: 'About 2.1 million.', steps: 2 });
    expect(fake.requests).toHaveLength(2);
    const messages = fake.requests[1]!.body.messages;
    expect(messages.at(-2)).toMatchObject({ role: 'assistant', content: plan });
    expect(messages.at(-1)).toMatchObject({ role: 'user' });
    expect(String(messages.at(-1)!.content)).toMatch(/Final Answer:/);
    notDelivered(events, plan);
  });

  it.each([
    ['prose', 'I will search for the population of Paris.'],
    ['a Thought alone', 'Thought: I need to search for the population of Paris next.'],
    ['an Action with no tool name', 'Thought: Search it.\nAction:\nAction Input: Paris population'],
  ])(
    'at the last step, a plan as %s is not the answer: the run ends with the step limit’s message',
    async (_name, plan) => {
      fake.script({ content: plan });
      const { result, events } = await ask(1);
      expect(result).toMatchObject({ status: 'answered', text: stepLimit(1), steps: 1 });
      expect(toolRuns).toBe(0);
      notDelivered(events, plan);
    },
  );

  it('a plan again after the reminder, at the last step, ends with the step limit’s message', async () => {
    const plan = 'Let me look that up.';
    fake.script({ content: plan }, { content: plan });
    const { result, events } = await ask(2);
    expect(result).toMatchObject({ status: 'answered', text: stepLimit(2) });
    expect(fake.requests).toHaveLength(2);
    notDelivered(events, plan);
  });

  it('at the last step, unlabelled prose that plans nothing is still delivered', async () => {
    fake.script({ content: 'Paris has about 2.1 million inhabitants' });
    const { result } = await ask(1);
    expect(result).toMatchObject({ status: 'answered', text: 'Paris has about 2.1 million inhabitants' });
  });
});
