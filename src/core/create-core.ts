import { type AgentSettings, createAgent } from './agent/create-agent.js';
import type { Assistant } from './assistant.js';
import { createGovernor, type GovernanceSettings } from './governance/governor.js';
import type { InputSettings } from './input/types.js';
import { createOpenAIChatModel, type OpenAIChatModelOptions } from './llm/openai-chat-model.js';
import type { Logger } from './logger.js';
import { createChannelMemory } from './memory/channel-memory.js';
import { createSummarizer } from './memory/summarizer.js';
import type { MemoryBudget } from './memory/types.js';
import type { ChannelSettingsStore } from './ports/channel-settings-store.js';
import type { ConversationStore } from './ports/conversation-store.js';
import type { FeedbackStore } from './ports/feedback-store.js';
import type { RunObserver } from './ports/run-observer.js';
import type { RunQueue } from './ports/run-queue.js';
import { combineTools, fixedTools, type ToolSource } from './ports/tool-source.js';
import type { UsageStore } from './ports/usage-store.js';
import { loadPrompts } from './prompts.js';
import { createAssistant } from './runs/create-assistant.js';
import { createRunQueue, type RunQueueLimits } from './runs/run-queue.js';
import { createSettingsService } from './settings/settings-service.js';
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
  /** LLM_MODELS: the models a channel's settings may pick, on the same endpoint (`model.model` always may). */
  models?: readonly string[] | undefined;
  agent: AgentSettings;
  tools: ToolSettings;
  /** Tools beyond the built-in ones, e.g. from MCP servers; they may come and go while the bot runs. */
  toolSources?: readonly ToolSource[] | undefined;
  memory: MemoryBudget;
  /** Budgets of thread context and attachments, and whether the model sees images; defaults when unset. */
  input?: InputSettings | undefined;
  runs: RunQueueLimits;
  /** The per-channel line shared by replicas (Postgres); one in memory, from `runs`, when unset. */
  runQueue?: RunQueue | undefined;
  /** Folder of the prompt templates. */
  promptsDir: string;
  /** Where conversations persist; closing it is left to the caller, after `Core.close()`. */
  store: ConversationStore;
  /** Where usage is recorded and limits are counted (usually the same database as `store`). */
  usage: UsageStore;
  /** Where per-channel settings are kept (usually the same database as `store`). */
  settings: ChannelSettingsStore;
  /** Where votes on answers are kept (usually the same database as `store`). */
  feedback?: FeedbackStore | undefined;
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
    vision: options.input?.LLM_VISION,
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
    feedback: options.feedback,
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
  const settings = createSettingsService({
    store: options.settings,
    defaults: { model: options.model.model, protocol: options.agent.AGENT_PROTOCOL },
    models: options.models ?? [],
    groups: () => tools.groups(),
    logger,
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
    settings,
    feedback: options.feedback,
    input: options.input,
  });
  return {
    assistant,
    close: () => assistant.close(),
  };
}
