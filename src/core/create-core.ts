import { type Config, SECRET_KEYS } from '../config.js';
import { createStore } from '../store/create-store.js';
import { createAgent } from './agent/create-agent.js';
import type { Assistant } from './assistant.js';
import { createOpenAIChatModel } from './llm/openai-chat-model.js';
import { createRedactor, type Logger } from './logger.js';
import { createChannelMemory } from './memory/channel-memory.js';
import { createSummarizer } from './memory/summarizer.js';
import { loadPrompts } from './prompts.js';
import { createAssistant } from './runs/create-assistant.js';
import { createTools } from './tools/registry.js';

/** The platform-neutral core: everything an adapter needs. */
export interface Core {
  assistant: Assistant;
  /** Finishes work in flight (runs, memory compression) and closes storage. */
  close(): Promise<void>;
}

/** Builds the core from configuration: model client, tools, prompts, agent, storage and the assistant. */
export async function createCore(config: Config, logger: Logger): Promise<Core> {
  const modelOptions = {
    apiKey: config.OPENAI_API_KEY,
    baseURL: config.OPENAI_BASE_URL,
    model: config.LLM_MODEL,
    temperature: config.LLM_TEMPERATURE,
    maxRetries: config.LLM_MAX_RETRIES,
    timeoutMs: config.LLM_TIMEOUT_MS,
    stream: config.LLM_STREAM,
  };
  const model = createOpenAIChatModel(modelOptions);
  const prompts = loadPrompts(config.PROMPTS_DIR);
  const agent = createAgent({
    model,
    tools: createTools(config),
    prompts,
    settings: config,
    logger,
    redact: createRedactor(SECRET_KEYS.map((k) => config[k])),
  });
  const summarizer = createSummarizer({
    // Summaries are read by no one as they stream, so they are fetched whole.
    model: createOpenAIChatModel({
      ...modelOptions,
      model: config.SUMMARY_MODEL ?? config.LLM_MODEL,
      stream: false,
    }),
    prompts,
    maxTokens: config.MEMORY_SUMMARY_MAX_TOKENS,
    logger,
  });
  const store = await createStore(config.DATABASE_URL);
  const memory = createChannelMemory({ store, summarizer, budget: config, logger });
  const assistant = createAssistant({ agent, memory, limits: config, logger });
  return {
    assistant,
    async close() {
      try {
        await assistant.close();
      } finally {
        await store.close();
      }
    },
  };
}
