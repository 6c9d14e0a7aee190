import { type Config, SECRET_KEYS } from './config.js';
import type { ApprovalSettings } from './core/approvals/approval-policy.js';
import type { CoreOptions } from './core/create-core.js';
import { ConfigError } from './core/errors.js';
import type { FollowSettings } from './core/follow/thread-follows.js';
import { createRedactor } from './core/logger.js';
import type { RecallSettings } from './core/memory/types.js';
import type { ScheduleSettings } from './core/schedules/schedule-settings.js';
import type { ToolSettings } from './core/tools/registry.js';

/**
 * The core's options from the parsed configuration; the caller adds the stores and the logger. `secrets`
 * are scrubbed along with SECRET_KEYS (e.g. values mcp.json expanded from the environment) and the fallback
 * models' keys; `env` is where `$NAME` entries of LLM_FALLBACK_KEYS are read. Throws a ConfigError when
 * LLM_FALLBACK_KEYS names an unset variable or has more keys than LLM_FALLBACK has entries.
 */
export function coreOptionsFrom(
  config: Config,
  secrets: readonly string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): Omit<CoreOptions, 'store' | 'usage' | 'settings' | 'logger'> {
  const keys = fallbackKeys(config, env);
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
    fallback:
      config.LLM_FALLBACK.length > 0
        ? {
            endpoints: config.LLM_FALLBACK.map((entry, i) => ({
              ...entry,
              apiKey: keys[i],
              promptCacheKey:
                config.LLM_PROMPT_CACHE_KEY === 'auto'
                  ? servesOpenAI(entry.baseURL)
                  : config.LLM_PROMPT_CACHE_KEY,
            })),
            afterMs: config.LLM_FALLBACK_AFTER_MS,
            cooldownMs: config.LLM_FALLBACK_COOLDOWN_MS,
          }
        : undefined,
    models: config.LLM_MODELS,
    agent: {
      AGENT_PROTOCOL: config.AGENT_PROTOCOL,
      AGENT_MAX_STEPS: config.AGENT_MAX_STEPS,
      TOOL_TIMEOUT_MS: config.TOOL_TIMEOUT_MS,
      TOOL_CONCURRENCY: config.TOOL_CONCURRENCY,
      RUN_TIMEOUT_MS: config.RUN_TIMEOUT_MS,
      ANSWER_MAX_CHARS: config.ANSWER_MAX_CHARS,
      SHOW_REASONING: config.SHOW_REASONING,
      DEFAULT_TIMEZONE: config.DEFAULT_TIMEZONE,
    },
    tools: toolSettingsFrom(config),
    memory: {
      MEMORY_MAX_TOKENS: config.MEMORY_MAX_TOKENS,
      MEMORY_KEEP_TURNS: config.MEMORY_KEEP_TURNS,
      MEMORY_SUMMARY_MAX_TOKENS: config.MEMORY_SUMMARY_MAX_TOKENS,
    },
    input: {
      CONTEXT_MAX_TOKENS: config.CONTEXT_MAX_TOKENS,
      ATTACHMENT_MAX_TOKENS: config.ATTACHMENT_MAX_TOKENS,
      LLM_VISION: config.LLM_VISION,
    },
    runs: {
      MAX_CONCURRENT_RUNS: config.MAX_CONCURRENT_RUNS,
      MAX_QUEUED_PER_CHANNEL: config.MAX_QUEUED_PER_CHANNEL,
    },
    promptsDir: config.PROMPTS_DIR,
    approvals: { settings: approvalSettingsFrom(config) },
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
    redact: createRedactor([...SECRET_KEYS.map((key) => config[key]), ...keys, ...secrets]),
  };
}

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The API keys of the LLM_FALLBACK entries, in their order, from LLM_FALLBACK_KEYS: an empty entry (or none)
 * is no key; `$NAME` is the value of the environment variable NAME. They are secrets, to be scrubbed from
 * logs like SECRET_KEYS (the whole LLM_FALLBACK_KEYS value is one of those, its keys one by one are not).
 */
export function fallbackKeys(config: Config, env: NodeJS.ProcessEnv = process.env): (string | undefined)[] {
  const entries = (config.LLM_FALLBACK_KEYS ?? '').split(',').map((entry) => entry.trim());
  const problems: string[] = [];
  const keys = config.LLM_FALLBACK.map((_, i) => {
    const entry = entries[i];
    if (!entry) return undefined;
    if (!entry.startsWith('$')) return entry;
    const name = entry.slice(1);
    const named = VARIABLE_NAME.test(name);
    const value = named ? env[name]?.trim() : undefined;
    if (!value) {
      problems.push(
        `LLM_FALLBACK_KEYS: entry ${i + 1} reads ${entry}, which is ${named ? 'not set' : 'not a variable name'}`,
      );
    }
    return value;
  });
  const extra = entries.slice(config.LLM_FALLBACK.length).filter(Boolean).length;
  if (extra > 0) {
    problems.push(
      `LLM_FALLBACK_KEYS: ${entries.length} keys for ${config.LLM_FALLBACK.length} LLM_FALLBACK entries (one key per entry, in the same order)`,
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return keys;
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

/** What scheduled questions read from the configuration: the caller pairs it with the store that keeps them. */
export function scheduleSettingsFrom(config: Config): ScheduleSettings {
  return {
    SCHEDULE_ANYONE: config.SCHEDULE_ANYONE,
    SCHEDULES_PER_PERSON: config.SCHEDULES_PER_PERSON,
    SCHEDULE_CATCH_UP_MS: config.SCHEDULE_CATCH_UP_MS,
    DEFAULT_TIMEZONE: config.DEFAULT_TIMEZONE,
  };
}

/** Who approves tool calls, how long they wait, and what MCP tools default to: the caller adds the store. */
export function approvalSettingsFrom(config: Config): ApprovalSettings {
  return {
    APPROVERS: config.APPROVERS,
    APPROVAL_TIMEOUT_MS: config.APPROVAL_TIMEOUT_MS,
    APPROVAL_DEFAULT_MCP: config.APPROVAL_DEFAULT_MCP,
  };
}

/** Whether and how long threads are followed: the caller pairs it with the store that keeps them. */
export function followSettingsFrom(config: Config): FollowSettings {
  return { FOLLOW_THREADS: config.FOLLOW_THREADS, FOLLOW_IDLE: config.FOLLOW_IDLE };
}

/** The archive's and notes' budgets: the caller pairs them with the store that keeps both. */
export function recallSettingsFrom(config: Config): RecallSettings {
  return {
    RECALL_MAX_TOKENS: config.RECALL_MAX_TOKENS,
    NOTES_MAX_TOKENS: config.NOTES_MAX_TOKENS,
    MEMORY_RETENTION_DAYS: config.MEMORY_RETENTION_DAYS,
  };
}
