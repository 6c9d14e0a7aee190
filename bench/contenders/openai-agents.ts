import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled, tool } from '@openai/agents';
import OpenAI from 'openai';
import { z } from 'zod';
import { CALCULATOR, calculate } from '../support/calculator.js';
import type { Contender, ContenderSetup } from './types.js';

/** `@openai/agents` with its Chat Completions model pointed at the scripted server. */
export function createOpenAIAgents(setup: ContenderSetup): Contender {
  setTracingDisabled(true); // the default exporter would post traces to api.openai.com
  const client = new OpenAI({ apiKey: 'not-needed', baseURL: setup.url });
  const agent = new Agent({
    name: 'bench',
    instructions: setup.systemPrompt,
    model: new OpenAIChatCompletionsModel(client, 'fake-model'),
    tools: [
      tool({
        name: CALCULATOR.name,
        description: CALCULATOR.description,
        parameters: z.object({ expression: z.string().describe(CALCULATOR.argumentDescription) }),
        execute: ({ expression }) => calculate(expression),
      }),
    ],
  });
  return {
    async ask(question) {
      if (!setup.stream) return (await run(agent, question)).finalOutput;
      const result = await run(agent, question, { stream: true });
      for await (const _event of result) {
        // consumed as a renderer would
      }
      await result.completed;
      return result.finalOutput;
    },
  };
}
