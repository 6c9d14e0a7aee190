import { z } from 'zod';
import { bool, globList, int, optionalText, optionalUrl } from './fields.js';
import { fallbackList } from './list-fields.js';
import { settingGroup } from './setting-group.js';

/** The model server, the model, and the endpoints to fall back on. */
export const modelSettings = settingGroup({
  title: 'Model',
  intro:
    'Any OpenAI-compatible Chat Completions server: OpenAI, DeepSeek, Qwen, Ollama, vLLM… Set ' +
    '`OPENAI_API_KEY` for OpenAI, or `OPENAI_BASE_URL` for another server (at least one is required).',
  page: 'models.md',
  shape: {
    OPENAI_API_KEY: optionalText.describe(
      'API key of the model server (OpenAI needs it; local servers usually not).',
    ),
    OPENAI_BASE_URL: optionalUrl().meta({
      description:
        'Any OpenAI-compatible endpoint: Ollama `http://localhost:11434/v1`, vLLM `http://localhost:8000/v1`, ' +
        'DeepSeek `https://api.deepseek.com/v1`, Qwen (DashScope) ' +
        '`https://dashscope.aliyuncs.com/compatible-mode/v1`.',
      unset: 'OpenAI',
    }),
    LLM_MODEL: z.string().trim().min(1).default('gpt-4o-mini').describe('Model name.'),
    LLM_MODELS: globList('').meta({
      description: 'Models an admin may pick for a channel with `/settings model` (comma-separated).',
      unset: '`LLM_MODEL` only',
    }),
    LLM_TEMPERATURE: z.coerce
      .number()
      .min(0)
      .max(2)
      .optional()
      .meta({ description: 'Sampling temperature (0–2).', unset: "the server's default" }),
    LLM_MAX_RETRIES: int(3, 0).describe(
      'Retries of 429 / 5xx / connection errors, with backoff honouring `retry-after`.',
    ),
    LLM_TIMEOUT_MS: int(60_000).describe('Timeout of one model request, in milliseconds.'),
    LLM_STREAM: bool(true).describe(
      'Stream answers token by token; `false` for servers that cannot stream with tools.',
    ),
    LLM_PROMPT_CACHE_KEY: z
      .enum(['auto', 'true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
      .default('auto')
      .transform((v) => (v === 'auto' ? v : ['true', '1', 'yes', 'on'].includes(v)))
      .describe(
        "Send each conversation's `prompt_cache_key`: `auto` only to OpenAI's own API, or `true` / `false`.",
      ),
    SUMMARY_MODEL: optionalText.meta({
      description: 'Model used to summarise old turns.',
      unset: '`LLM_MODEL`',
    }),
    LLM_FALLBACK: fallbackList.describe(
      'Further endpoints as `model@base_url`, comma-separated, tried in order when the one before is ' +
        'unavailable (connection error, 5xx, timeout, or a 429 asking to wait longer than ' +
        '`LLM_FALLBACK_AFTER_MS`), e.g. `qwen2.5@http://localhost:11434/v1,deepseek-chat@https://api.deepseek.com/v1`.',
    ),
    LLM_FALLBACK_KEYS: optionalText.describe(
      "The fallbacks' API keys in the same order, comma-separated (empty for none); `$NAME` reads another variable.",
    ),
    LLM_FALLBACK_AFTER_MS: int(30_000, 0).describe(
      'A 429 asking to wait longer than this falls back at once (a shorter one is retried where it is).',
    ),
    LLM_FALLBACK_COOLDOWN_MS: int(60_000, 0).describe(
      'A failing endpoint is skipped this long before it is tried again (circuit breaker).',
    ),
    LLM_VISION: bool(false).describe(
      '`true`: the model can see images (OpenAI `image_url` parts), so attached images and images from MCP ' +
        'tools are sent to it.',
    ),
  },
});

/** How a question is answered: the protocol, its steps and their limits. */
export const agentSettings = settingGroup({
  title: 'Agent',
  intro: 'How a question is answered: the protocol, its steps, and their limits.',
  page: 'architecture.md',
  shape: {
    AGENT_PROTOCOL: z
      .enum(['tools', 'react'])
      .default('tools')
      .describe(
        '`tools`: native function calling; `react`: the Thought / Action / Observation text protocol, for ' +
          'models without function calling.',
      ),
    AGENT_MAX_STEPS: int(8).describe(
      'Model calls per question; at the last one the model must answer without tools.',
    ),
    TOOL_TIMEOUT_MS: int(15_000).describe('Timeout of one tool call.'),
    TOOL_CONCURRENCY: int(4).describe('Tool calls from one model reply that may run at once.'),
    RUN_TIMEOUT_MS: int(120_000).describe(
      'Timeout of a whole question (it stands still while a tool call waits for approval).',
    ),
    ANSWER_MAX_CHARS: int(40_000, 100).describe(
      'Longest answer shown or remembered, in characters; a longer one is cut, with a note.',
    ),
    SHOW_REASONING: bool(true).describe(
      "Reasoning models' thinking (`reasoning_content`, `<think>` blocks) shown as Thought steps; never in the answer.",
    ),
    PROMPTS_DIR: z
      .string()
      .default('./prompts')
      .describe('Folder of the prompt templates (edit them without touching code).'),
  },
});
