import type { Config } from '../../../config.js';
import type { ToolGroup } from '../../../core/ports/tool-source.js';

/** The settings overview: what is in force, never a secret (no keys, tokens or URLs that may hold them). */
export interface SettingsOverview {
  channels: { key: string; settings: Record<string, string> }[];
  tools: readonly ToolGroup[];
  access: Record<string, string>;
  limits: Record<string, string>;
  model: Record<string, string>;
  operations: Record<string, string>;
}

const list = (values: readonly string[]) => (values.length > 0 ? values.join(', ') : '(none)');
const off = (n: number) => (n > 0 ? String(n) : 'off');

/** The overview from the configuration, the tool groups and every saved channel setting. */
export function settingsOverview(
  config: Config,
  tools: readonly ToolGroup[],
  saved: readonly { key: string; name: string; value: string }[],
): SettingsOverview {
  const channels = new Map<string, Record<string, string>>();
  for (const { key, name, value } of saved) channels.set(key, { ...channels.get(key), [name]: value });
  return {
    channels: [...channels].map(([key, settings]) => ({ key, settings })),
    tools,
    access: {
      ADMIN_USERS: list(config.ADMIN_USERS),
      ALLOW_USERS: list(config.ALLOW_USERS),
      BLOCK_USERS: list(config.BLOCK_USERS),
      ALLOW_CHANNELS: list(config.ALLOW_CHANNELS),
      BLOCK_CHANNELS: list(config.BLOCK_CHANNELS),
      ALLOW_ROLES: list(config.ALLOW_ROLES),
      ALLOW_DMS: String(config.ALLOW_DMS),
      WEB_AUTH: config.WEB_AUTH,
    },
    limits: {
      RATE_LIMIT_USER: config.RATE_LIMIT_USER?.text ?? 'off',
      RATE_LIMIT_CHANNEL: config.RATE_LIMIT_CHANNEL?.text ?? 'off',
      TOKEN_BUDGET_USER_DAY: off(config.TOKEN_BUDGET_USER_DAY),
      TOKEN_BUDGET_CHANNEL_DAY: off(config.TOKEN_BUDGET_CHANNEL_DAY),
      TOKEN_BUDGET_DAY: off(config.TOKEN_BUDGET_DAY),
      MAX_CONCURRENT_RUNS: String(config.MAX_CONCURRENT_RUNS),
      MAX_QUEUED_PER_CHANNEL: String(config.MAX_QUEUED_PER_CHANNEL),
    },
    model: {
      LLM_MODEL: config.LLM_MODEL,
      LLM_MODELS: list(config.LLM_MODELS),
      LLM_FALLBACK: list(config.LLM_FALLBACK.map((f) => f.model)),
      AGENT_PROTOCOL: config.AGENT_PROTOCOL,
      LLM_PRICE_INPUT_PER_MTOK: config.LLM_PRICE_INPUT_PER_MTOK?.toString() ?? '(not set)',
      LLM_PRICE_OUTPUT_PER_MTOK: config.LLM_PRICE_OUTPUT_PER_MTOK?.toString() ?? '(not set)',
    },
    operations: {
      RUN_LOG_RETENTION_DAYS:
        config.RUN_LOG_RETENTION_DAYS > 0 ? String(config.RUN_LOG_RETENTION_DAYS) : '0 (run logs are off)',
      MEMORY_RETENTION_DAYS: off(config.MEMORY_RETENTION_DAYS),
      tracing: config.OTEL_EXPORTER_OTLP_ENDPOINT ? 'on (OTLP/HTTP)' : 'off',
      OTEL_CAPTURE_CONTENT: String(config.OTEL_CAPTURE_CONTENT),
      METRICS: String(config.METRICS),
    },
  };
}
