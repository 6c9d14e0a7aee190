import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { createAgent } from '../../src/core/agent/create-agent.js';
import type { AgentEventHandler } from '../../src/core/agent/events.js';
import type { Agent } from '../../src/core/agent/types.js';
import { createOpenAIChatModel } from '../../src/core/llm/openai-chat-model.js';
import { createChannelMemory } from '../../src/core/memory/channel-memory.js';
import { createSummarizer } from '../../src/core/memory/summarizer.js';
import { loadPrompts } from '../../src/core/prompts.js';
import { createAssistant } from '../../src/core/runs/create-assistant.js';
import { calculatorTool } from '../../src/core/tools/calculator.js';
import { defineTool, type Tool } from '../../src/core/tools/define-tool.js';
import { createStore } from '../../src/store/create-store.js';
import { testConfig } from '../../tests/helpers/config.js';
import { CALCULATOR, calculate } from '../support/calculator.js';
import { PROMPTS_DIR } from '../support/paths.js';
import type { Contender, ContenderSetup } from './types.js';

/** Which thinkthread path to measure. */
export interface ThinkthreadVariant {
  protocol: 'tools' | 'react';
  /** `bench`: the in-process calculator every contender shares; `shipped`: the sandboxed one users get. */
  calculator?: 'bench' | 'shipped';
  /** Through the assistant service (per-channel queue, SQLite memory), a fresh channel per question. */
  assistant?: boolean;
}

/** The bench's calculator as a thinkthread tool. */
export function benchCalculatorTool(): Tool {
  return defineTool({
    name: CALCULATOR.name,
    description: CALCULATOR.description,
    input: z.object({ expression: z.string().describe(CALCULATOR.argumentDescription) }),
    execute: ({ expression }) => calculate(expression),
  }) as Tool;
}

/** thinkthread's agent loop (createAgent with the OpenAI-compatible model), optionally behind the assistant. */
export async function createThinkthread(
  setup: ContenderSetup,
  variant: ThinkthreadVariant,
): Promise<Contender> {
  const config = testConfig({
    OPENAI_BASE_URL: setup.url,
    LLM_MODEL: 'fake-model',
    LLM_STREAM: String(setup.stream),
    AGENT_PROTOCOL: variant.protocol,
    PROMPTS_DIR,
    MAX_CONCURRENT_RUNS: '64',
  });
  const modelOptions = {
    baseURL: config.OPENAI_BASE_URL,
    model: config.LLM_MODEL,
    maxRetries: config.LLM_MAX_RETRIES,
    timeoutMs: config.LLM_TIMEOUT_MS,
    stream: config.LLM_STREAM,
  };
  const prompts = loadPrompts(config.PROMPTS_DIR);
  const tool = variant.calculator === 'shipped' ? calculatorTool(config) : benchCalculatorTool();
  if (!tool) throw new Error('the calculator tool is not available');
  const agent: Agent = createAgent({
    model: createOpenAIChatModel(modelOptions),
    tools: [tool],
    prompts,
    settings: config,
  });
  // Every event reaches a handler, as with a platform renderer; this one draws nothing.
  const onEvent: AgentEventHandler = () => {};

  if (!variant.assistant) {
    return {
      async ask(question) {
        const result = await agent.run(
          { message: question, author: 'bench', context: { turns: [] } },
          onEvent,
        );
        return result.status === 'answered' ? result.text : undefined;
      },
    };
  }

  const dir = mkdtempSync(join(tmpdir(), 'thinkthread-bench-'));
  const store = await createStore(`sqlite:${join(dir, 'bench.db')}`);
  const summarizer = createSummarizer({
    model: createOpenAIChatModel({ ...modelOptions, stream: false }),
    prompts,
    maxTokens: config.MEMORY_SUMMARY_MAX_TOKENS,
  });
  const memory = createChannelMemory({ store, summarizer, budget: config });
  const assistant = createAssistant({ agent, memory, limits: config });
  let channel = 0;
  return {
    async ask(question) {
      const outcome = await assistant.ask(
        { key: `bench:${channel++}`, author: 'bench', text: question },
        onEvent,
      );
      return outcome.status === 'answered' ? outcome.text : undefined;
    },
    async close() {
      await assistant.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
