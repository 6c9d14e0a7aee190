import type { BaseMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent, tool } from 'langchain';
import { z } from 'zod';
import { CALCULATOR, calculate } from '../support/calculator.js';
import type { Contender, ContenderSetup } from './types.js';

/** LangChain JS v1 `createAgent` with `ChatOpenAI` pointed at the scripted server. */
export function createLangChain(setup: ContenderSetup): Contender {
  const model = new ChatOpenAI({
    model: 'fake-model',
    apiKey: 'not-needed',
    configuration: { baseURL: setup.url },
    streaming: setup.stream,
  });
  const calculator = tool(({ expression }: { expression: string }) => calculate(expression), {
    name: CALCULATOR.name,
    description: CALCULATOR.description,
    schema: z.object({ expression: z.string().describe(CALCULATOR.argumentDescription) }),
  });
  const agent = createAgent({ model, tools: [calculator], systemPrompt: setup.systemPrompt });
  const lastText = (messages: BaseMessage[] | undefined) => messages?.at(-1)?.text;

  return {
    async ask(question) {
      const input = { messages: [{ role: 'user' as const, content: question }] };
      if (!setup.stream) return lastText((await agent.invoke(input)).messages);
      // Tokens as they arrive ('messages') and the state after each step ('values'), as a chat UI would.
      let final: BaseMessage[] | undefined;
      for await (const [mode, chunk] of await agent.stream(input, { streamMode: ['messages', 'values'] })) {
        if (mode === 'values') final = (chunk as { messages: BaseMessage[] }).messages;
      }
      return lastText(final);
    },
  };
}
