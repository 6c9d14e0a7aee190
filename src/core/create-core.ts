import { type Config, SECRET_KEYS } from '../config.js';
import { createAgent } from './agent/create-agent.js';
import type { Assistant } from './assistant.js';
import { createOpenAIChatModel } from './llm/openai-chat-model.js';
import { createRedactor, type Logger } from './logger.js';
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
  const model = createOpenAIChatModel({
    apiKey: config.OPENAI_API_KEY,
    baseURL: config.OPENAI_BASE_URL,
    model: config.LLM_MODEL,
    temperature: config.LLM_TEMPERATURE,
    maxRetries: config.LLM_MAX_RETRIES,
    timeoutMs: config.LLM_TIMEOUT_MS,
    stream: config.LLM_STREAM,
  });
  const agent = createAgent({
    model,
    tools: createTools(config),
    prompts: loadPrompts(config.PROMPTS_DIR),
    settings: config,
    logger,
    redact: createRedactor(SECRET_KEYS.map((k) => config[k])),
  });
  const assistant = createAssistant({ agent });
  return {
    assistant,
    close: () => assistant.close(),
  };
}
