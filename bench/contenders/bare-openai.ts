import OpenAI from 'openai';
import type {
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { CALCULATOR, calculate } from '../support/calculator.js';
import type { Contender, ContenderSetup } from './types.js';

interface Reply {
  content: string;
  calls: { id: string; name: string; arguments: string }[];
}

/**
 * The floor: a hand-written tool loop on the `openai` package, no framework. It does what any bot must do
 * (call, run the tools, send the results back, repeat) and nothing else: no validation, events or limits.
 */
export function createBareOpenAI(setup: ContenderSetup): Contender {
  const client = new OpenAI({ apiKey: 'not-needed', baseURL: setup.url });
  const tools: ChatCompletionCreateParamsBase['tools'] = [
    {
      type: 'function',
      function: {
        name: CALCULATOR.name,
        description: CALCULATOR.description,
        parameters: {
          type: 'object',
          properties: {
            [CALCULATOR.argument]: { type: 'string', description: CALCULATOR.argumentDescription },
          },
          required: [CALCULATOR.argument],
          additionalProperties: false,
        },
      },
    },
  ];

  async function whole(messages: ChatCompletionMessageParam[]): Promise<Reply> {
    const response = await client.chat.completions.create({ model: 'fake-model', messages, tools });
    const message = response.choices[0]?.message;
    return {
      content: message?.content ?? '',
      calls: (message?.tool_calls ?? []).flatMap((c) =>
        c.type === 'function' ? [{ id: c.id, name: c.function.name, arguments: c.function.arguments }] : [],
      ),
    };
  }

  async function streamed(messages: ChatCompletionMessageParam[]): Promise<Reply> {
    const stream = await client.chat.completions.create({
      model: 'fake-model',
      messages,
      tools,
      stream: true,
      stream_options: { include_usage: true },
    });
    let content = '';
    const calls: Reply['calls'] = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      if (!delta) continue;
      if (delta.content) content += delta.content;
      for (const part of delta.tool_calls ?? []) {
        let slot = calls[part.index];
        if (!slot) {
          slot = { id: '', name: '', arguments: '' };
          calls[part.index] = slot;
        }
        if (part.id) slot.id = part.id;
        if (part.function?.name) slot.name += part.function.name;
        if (part.function?.arguments) slot.arguments += part.function.arguments;
      }
    }
    return { content, calls };
  }

  return {
    async ask(question) {
      const messages: ChatCompletionMessageParam[] = [
        { role: 'system', content: setup.systemPrompt },
        { role: 'user', content: question },
      ];
      for (let step = 0; step < 8; step++) {
        const reply = setup.stream ? await streamed(messages) : await whole(messages);
        if (reply.calls.length === 0) return reply.content;
        messages.push({
          role: 'assistant',
          content: reply.content || null,
          tool_calls: reply.calls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: c.arguments },
          })),
        });
        for (const call of reply.calls) {
          const { expression } = JSON.parse(call.arguments) as { expression: string };
          messages.push({ role: 'tool', tool_call_id: call.id, content: calculate(expression) });
        }
      }
      return undefined;
    },
  };
}
