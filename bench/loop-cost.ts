// The agent loop's own CPU per run, without HTTP or SDK: createAgent over an in-memory scripted model
// (the same three replies as the loop-overhead scenario). Used to find and check fixes of loop overhead:
//   node --import tsx bench/loop-cost.ts [tools|react] [runs]     (add --cpu-prof to profile)
import { createAgent } from '../src/core/agent/create-agent.js';
import type { ChatModel, Completion } from '../src/core/llm/types.js';
import { loadPrompts } from '../src/core/prompts.js';
import { testConfig } from '../tests/helpers/config.js';
import { benchCalculatorTool } from './contenders/thinkthread.js';
import { arithmeticFor, arithmeticResponder, isCorrect, questionText } from './support/arithmetic.js';
import { PROMPTS_DIR } from './support/paths.js';
import { median } from './support/stats.js';

const [protocol = 'tools', count = '20000'] = process.argv.slice(2);
const settings = testConfig({ AGENT_PROTOCOL: protocol, PROMPTS_DIR });

// Answers like the scripted server, from the same policy, but in memory.
const model: ChatModel = {
  async complete(request): Promise<Completion> {
    const step = arithmeticResponder({
      path: '/v1/chat/completions',
      headers: {},
      body: {
        model: 'fake-model',
        messages: request.messages.map((m) => ({ role: m.role, content: 'content' in m ? m.content : null })),
        ...(request.tools ? { tools: request.tools.map((t) => ({ type: 'function', function: t })) } : {}),
      },
    });
    if (!('content' in step)) throw new Error('unexpected step');
    if (step.content) request.onTextDelta?.(step.content);
    return {
      content: step.content ?? '',
      toolCalls: (step.toolCalls ?? []).map((c, i) => ({
        id: `call_${i}`,
        name: c.name,
        arguments: JSON.stringify(c.arguments),
      })),
      usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
      finishReason: null,
    };
  },
};
const agent = createAgent({
  model,
  tools: [benchCalculatorTool()],
  prompts: loadPrompts(PROMPTS_DIR),
  settings,
});

const runs = Number(count);
const batches: number[] = [];
let correct = 0;
for (let b = 0; b < 10; b++) {
  const start = performance.now();
  for (let i = 0; i < runs / 10; i++) {
    const q = arithmeticFor(i);
    const result = await agent.run(
      { message: questionText(q), author: 'bench', context: { turns: [] } },
      () => {},
    );
    if (result.status === 'answered' && isCorrect(result.text, q)) correct++;
  }
  batches.push(((performance.now() - start) * 1000) / (runs / 10));
}
process.stdout.write(
  `${protocol}: ${correct}/${runs} correct, median ${median(batches).toFixed(1)} µs per run (3 model calls, 2 tool calls)\n`,
);
