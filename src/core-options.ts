import { type Config, SECRET_KEYS } from './config.js';
import type { CoreOptions } from './core/create-core.js';
import { createRedactor } from './core/logger.js';
import type { ToolSettings } from './core/tools/registry.js';

/**
 * The core's options from the parsed configuration; the caller adds the stores and the logger. `secrets`
 * are scrubbed along with SECRET_KEYS (e.g. values mcp.json expanded from the environment).
 */
export function coreOptionsFrom(
  config: Config,
  secrets: readonly string[] = [],
): Omit<CoreOptions, 'store' | 'usage' | 'logger'> {
  return {
    model: {
      apiKey: config.OPENAI_API_KEY,
      baseURL: config.OPENAI_BASE_URL,
      model: config.LLM_MODEL,
      temperature: config.LLM_TEMPERATURE,
      maxRetries: config.LLM_MAX_RETRIES,
      timeoutMs: config.LLM_TIMEOUT_MS,
      stream: config.LLM_STREAM,
      promptCacheKey:
        config.LLM_PROMPT_CACHE_KEY === 'auto'
          ? servesOpenAI(config.OPENAI_BASE_URL)
          : config.LLM_PROMPT_CACHE_KEY,
    },
    summaryModel: config.SUMMARY_MODEL,
    agent: {
      AGENT_PROTOCOL: config.AGENT_PROTOCOL,
      AGENT_MAX_STEPS: config.AGENT_MAX_STEPS,
      TOOL_TIMEOUT_MS: config.TOOL_TIMEOUT_MS,
      TOOL_CONCURRENCY: config.TOOL_CONCURRENCY,
      RUN_TIMEOUT_MS: config.RUN_TIMEOUT_MS,
      ANSWER_MAX_CHARS: config.ANSWER_MAX_CHARS,
    },
    tools: toolSettingsFrom(config),
    memory: {
      MEMORY_MAX_TOKENS: config.MEMORY_MAX_TOKENS,
      MEMORY_KEEP_TURNS: config.MEMORY_KEEP_TURNS,
      MEMORY_SUMMARY_MAX_TOKENS: config.MEMORY_SUMMARY_MAX_TOKENS,
    },
    runs: {
      MAX_CONCURRENT_RUNS: config.MAX_CONCURRENT_RUNS,
      MAX_QUEUED_PER_CHANNEL: config.MAX_QUEUED_PER_CHANNEL,
    },
    promptsDir: config.PROMPTS_DIR,
    governance: {
      access: {
        ALLOW_USERS: config.ALLOW_USERS,
        BLOCK_USERS: config.BLOCK_USERS,
        ALLOW_CHANNELS: config.ALLOW_CHANNELS,
        BLOCK_CHANNELS: config.BLOCK_CHANNELS,
        ALLOW_ROLES: config.ALLOW_ROLES,
        ALLOW_DMS: config.ALLOW_DMS,
        ADMIN_USERS: config.ADMIN_USERS,
      },
      limits: {
        RATE_LIMIT_USER: config.RATE_LIMIT_USER,
        RATE_LIMIT_CHANNEL: config.RATE_LIMIT_CHANNEL,
        TOKEN_BUDGET_USER_DAY: config.TOKEN_BUDGET_USER_DAY,
        TOKEN_BUDGET_CHANNEL_DAY: config.TOKEN_BUDGET_CHANNEL_DAY,
        TOKEN_BUDGET_DAY: config.TOKEN_BUDGET_DAY,
      },
      timeZone: config.DEFAULT_TIMEZONE,
      prices: { input: config.LLM_PRICE_INPUT_PER_MTOK, output: config.LLM_PRICE_OUTPUT_PER_MTOK },
    },
    redact: createRedactor([...SECRET_KEYS.map((key) => config[key]), ...secrets]),
  };
}

/** Each tool's own settings, picked one by one: no tool sees another's secrets or a platform token. */
export function toolSettingsFrom(config: Config): ToolSettings {
  return {
    calculator: { CALCULATOR_WORKERS: config.CALCULATOR_WORKERS },
    currentTime: { DEFAULT_TIMEZONE: config.DEFAULT_TIMEZONE },
    weather: {
      OPEN_METEO_GEOCODING_URL: config.OPEN_METEO_GEOCODING_URL,
      OPEN_METEO_API_URL: config.OPEN_METEO_API_URL,
    },
    wikipedia: { WIKIPEDIA_API_URL: config.WIKIPEDIA_API_URL, WIKIPEDIA_LANG: config.WIKIPEDIA_LANG },
    webSearch: { TAVILY_API_KEY: config.TAVILY_API_KEY, TAVILY_API_URL: config.TAVILY_API_URL },
    readFile: {
      WORKSPACE_DIR: config.WORKSPACE_DIR,
      READ_FILE_MAX_BYTES: config.READ_FILE_MAX_BYTES,
      READ_FILE_DENY: config.READ_FILE_DENY,
    },
  };
}

/** Whether requests go to OpenAI's own API (no base URL, or api.openai.com), which accepts `prompt_cache_key`. */
function servesOpenAI(baseURL: string | undefined): boolean {
  return baseURL === undefined || new URL(baseURL).hostname === 'api.openai.com';
}
