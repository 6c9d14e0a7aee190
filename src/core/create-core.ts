import { type AgentSettings, createAgent } from './agent/create-agent.js';
import type { Assistant } from './assistant.js';
import { createGovernor, type GovernanceSettings } from './governance/governor.js';
import { createOpenAIChatModel, type OpenAIChatModelOptions } from './llm/openai-chat-model.js';
import type { Logger } from './logger.js';
import { createChannelMemory } from './memory/channel-memory.js';
import { createSummarizer } from './memory/summarizer.js';
import type { MemoryBudget } from './memory/types.js';
import type { ConversationStore } from './ports/conversation-store.js';
import type { RunObserver } from './ports/run-observer.js';
import type { RunQueue } from './ports/run-queue.js';
import { combineTools, fixedTools, type ToolSource } from './ports/tool-source.js';
import type { UsageStore } from './ports/usage-store.js';
import { loadPrompts } from './prompts.js';
import { createAssistant } from './runs/create-assistant.js';
import { createRunQueue, type RunQueueLimits } from './runs/run-queue.js';
import { createTools, type ToolSettings } from './tools/registry.js';

/** The platform-neutral core: everything an adapter needs. */
export interface Core {
  assistant: Assistant;
  /** Finishes work in flight (runs, memory compression); the store stays open for whoever opened it. */
  close(): Promise<void>;
}

/** Everything the core is built from: small typed settings plus the store and logger the root made. */
export interface CoreOptions {
  /** The chat model the agent talks to. */
  model: OpenAIChatModelOptions;
  /** The model that writes memory summaries, on the same endpoint; `model.model` when unset. */
  summaryModel?: string | undefined;
  agent: AgentSettings;
  tools: ToolSettings;
  /** Tools beyond the built-in ones, e.g. from MCP servers; they may come and go while the bot runs. */
  toolSources?: readonly ToolSource[] | undefined;
  memory: MemoryBudget;
  runs: RunQueueLimits;
  /** The per-channel line shared by replicas (Postgres); one in memory, from `runs`, when unset. */
  runQueue?: RunQueue | undefined;
  /** Folder of the prompt templates. */
  promptsDir: string;
  /** Where conversations persist; closing it is left to the caller, after `Core.close()`. */
  store: ConversationStore;
  /** Where usage is recorded and limits are counted (usually the same database as `store`). */
  usage: UsageStore;
  /** Access lists, limits, budgets and prices. */
  governance: GovernanceSettings;
  /** Told of every governed question as it ends (metrics). */
  observer?: RunObserver | undefined;
  logger: Logger;
  /** Scrubs secrets from tool output and error text before the model or the logs see them. */
  redact: (text: string) => string;
}

/** Builds the core: model client, tools, prompts, agent, memory on the given store, and the assistant. */
export async function createCore(options: CoreOptions): Promise<Core> {
  const { store, logger } = options;
  const prompts = loadPrompts(options.promptsDir);
  const tools = combineTools([fixedTools(createTools(options.tools)), ...(options.toolSources ?? [])]);
  const agent = createAgent({
    model: createOpenAIChatModel(options.model),
    tools,
    prompts,
    settings: options.agent,
    logger,
    redact: options.redact,
  });
  const summarizer = createSummarizer({
    // Summaries are read by no one as they stream, so they are fetched whole.
    model: createOpenAIChatModel({
      ...options.model,
      model: options.summaryModel ?? options.model.model,
      stream: false,
    }),
    prompts,
    maxTokens: options.memory.MEMORY_SUMMARY_MAX_TOKENS,
    logger,
  });
  const summaryModel = options.summaryModel ?? options.model.model;
  const governor = createGovernor({
    settings: options.governance,
    usage: options.usage,
    model: options.model.model,
    protocol: options.agent.AGENT_PROTOCOL,
    logger,
  });
  const memory = createChannelMemory({
    store,
    summarizer,
    budget: options.memory,
    logger,
    onSummaryUsage: (key, spent) =>
      void governor
        .summarized(key, spent, summaryModel)
        .catch((err: unknown) => logger.error({ key, err }, 'could not record a summary’s usage')),
  });
  const queue = options.runQueue ?? createRunQueue(options.runs, (ms) => options.observer?.waited?.(ms));
  const assistant = createAssistant({
    agent,
    memory,
    limits: options.runs,
    queue,
    governor,
    observer: options.observer,
    logger,
    tools,
  });
  return {
    assistant,
    close: () => assistant.close(),
  };
}
