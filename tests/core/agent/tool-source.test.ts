import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../../../src/core/agent/create-agent.js';
import { createOpenAIChatModel } from '../../../src/core/llm/openai-chat-model.js';
import { combineTools, fixedTools, type ToolSource } from '../../../src/core/ports/tool-source.js';
import { loadPrompts } from '../../../src/core/prompts.js';
import { defineTool, type Tool } from '../../../src/core/tools/define-tool.js';
import { type FakeOpenAI, startFakeOpenAI } from '../../fakes/openai-server.js';

const tool = (name: string) =>
  defineTool({
    name,
    description: `The ${name} tool.`,
    input: z.object({ text: z.string() }),
    execute: () => name,
  });

/** A source whose tools the test swaps, like an MCP server coming and going. */
function mutableSource(initial: Tool[]): ToolSource & { set(tools: Tool[]): void } {
  let tools = initial;
  let version = 0;
  return {
    current: () => tools,
    version: () => version,
    groups: () => [{ name: 'srv', kind: 'mcp', state: 'ready', tools: tools.map((t) => t.name) }],
    set(next) {
      tools = next;
      version++;
    },
  };
}

describe('tools that come and go', () => {
  let fake: FakeOpenAI;
  beforeEach(async () => {
    fake = await startFakeOpenAI({ fallback: () => ({ content: 'Thought: done.\nFinal Answer: ok' }) });
  });
  afterEach(() => fake.close());

  const agentOn = (tools: ToolSource, protocol: 'tools' | 'react') =>
    createAgent({
      model: createOpenAIChatModel({
        baseURL: fake.url,
        model: 'm',
        maxRetries: 0,
        timeoutMs: 5000,
        stream: false,
      }),
      tools,
      prompts: loadPrompts('prompts'),
      settings: {
        AGENT_PROTOCOL: protocol,
        AGENT_MAX_STEPS: 4,
        TOOL_TIMEOUT_MS: 2000,
        TOOL_CONCURRENCY: 4,
        RUN_TIMEOUT_MS: 10_000,
        ANSWER_MAX_CHARS: 40_000,
      },
    });
  const ask = (agent: ReturnType<typeof agentOn>) =>
    agent.run({ message: 'q', author: 'a', context: { turns: [] } });
  const system = (i: number) => String(fake.requests[i]!.body.messages[0]!.content);

  it('keeps the system prompt byte for byte while the tools stay, and re-renders it when they change', async () => {
    const mcp = mutableSource([tool('srv__one')]);
    const agent = agentOn(combineTools([fixedTools([tool('builtin')]), mcp]), 'react');
    await ask(agent);
    await ask(agent);
    expect(system(1)).toBe(system(0));
    expect(system(0)).toContain('- srv__one: The srv__one tool.');

    mcp.set([]);
    await ask(agent);
    expect(system(2)).not.toContain('srv__one');
    expect(system(2)).toContain('- builtin: The builtin tool.');

    mcp.set([tool('srv__one'), tool('srv__two')]);
    await ask(agent);
    expect(fake.requests[3]!.body.messages[0]!.content).toContain('- srv__two: The srv__two tool.');
  });

  it('offers the tools in force at the start of each run in the tools protocol', async () => {
    const mcp = mutableSource([tool('srv__one')]);
    const agent = agentOn(combineTools([fixedTools([tool('builtin')]), mcp]), 'tools');
    await ask(agent);
    mcp.set([]);
    await ask(agent);
    const offered = (i: number) => fake.requests[i]!.body.tools?.map((t) => t.function.name);
    expect(offered(0)).toEqual(['builtin', 'srv__one']);
    expect(offered(1)).toEqual(['builtin']);
  });
});
