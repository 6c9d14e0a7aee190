import { isIP } from 'node:net';
import { z } from 'zod';
import { ConfigError } from './core/errors.js';
import { parseRate } from './core/governance/rate.js';
import { DEFAULT_READ_FILE_DENY } from './core/tools/deny-list.js';
import { parseDuration } from './core/util/duration.js';
import { isLoopback } from './platforms/web/loopback.js';
import { sqlitePathOf } from './store/create-store.js';
import { isPostgresUrl, parsePostgresUrl } from './store/postgres/postgres-url.js';

// Node timers take at most 2^31-1 ms; a larger value would fire at once.
const int = (fallback: number, min = 1) =>
  z.coerce.number().int().min(min).max(2_147_483_647).default(fallback);
const duration = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      const ms = parseDuration(text);
      if (ms === undefined)
        ctx.addIssue({ code: 'custom', message: 'must be a duration, e.g. 30s, 10m, 24h or 7d' });
      return ms ?? 0;
    });
const url = (fallback: string) => z.url({ protocol: /^https?$/ }).default(fallback);
const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));
const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => ['true', '1', 'yes', 'on'].includes(v));

/** The non-empty, trimmed entries of a `sep`-separated setting. */
const entriesOf = (text: string, sep = ',') =>
  text
    .split(sep)
    .map((entry) => entry.trim())
    .filter(Boolean);

const idList = z
  .string()
  .default('')
  .transform((text, ctx) => {
    const ids = entriesOf(text);
    for (const id of ids) {
      if (!/^[A-Za-z0-9_-]+$/.test(id)) {
        ctx.addIssue({ code: 'custom', message: `"${id}" is not a platform ID; use comma-separated IDs` });
      }
    }
    return ids;
  });
/** Principals as `platform:id` (`slack:U…`, `slack:T…:U…`, `discord:…`, `web:…`, `console:…`); a bare ID means Slack or Discord. */
const principalList = z
  .string()
  .default('')
  .transform((text, ctx) => {
    const entries = entriesOf(text);
    for (const entry of entries) {
      if (entry.startsWith('addr:')) {
        if (!isAddressOrNetwork(entry.slice('addr:'.length))) {
          ctx.addIssue({
            code: 'custom',
            message: `"${entry}" is not addr:<IP address> or addr:<IP>/<prefix>`,
          });
        }
        continue;
      }
      if (!/^((slack|discord|web|console):)?[A-Za-z0-9_-]+(:[A-Za-z0-9_-]+)?$/.test(entry)) {
        ctx.addIssue({
          code: 'custom',
          message: `"${entry}" is not a person; use comma-separated platform:id entries (slack:U…, discord:…, web:…)`,
        });
      }
    }
    return entries;
  });
/** `203.0.113.7`, `203.0.113.0/24`, `2001:db8::/48`. */
function isAddressOrNetwork(text: string): boolean {
  const [address = '', prefix, extra] = text.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}
const secret = (min: number) =>
  optionalText.pipe(
    z.string().min(min, `must be at least ${min} characters (a long random value)`).optional(),
  );
const rateLimit = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      const rate = parseRate(text);
      if (rate === undefined) {
        ctx.addIssue({ code: 'custom', message: 'must be N/minute, N/hour, N/day or off (e.g. 30/hour)' });
        return z.NEVER;
      }
      return rate;
    });
/** `title|message;title|message`: at most 4 prompts, each with a title and a message. */
const suggestedPrompts = z
  .string()
  .default('')
  .transform((text, ctx) => {
    const entries = entriesOf(text, ';');
    if (entries.length > 4) {
      ctx.addIssue({ code: 'custom', message: `at most 4 prompts (got ${entries.length})` });
      return z.NEVER;
    }
    const prompts: { title: string; message: string }[] = [];
    for (const entry of entries) {
      const at = entry.indexOf('|');
      const title = at < 0 ? '' : entry.slice(0, at).trim();
      const message = at < 0 ? '' : entry.slice(at + 1).trim();
      if (!title || !message) {
        ctx.addIssue({ code: 'custom', message: `"${entry}" is not title|message; separate prompts with ;` });
        return z.NEVER;
      }
      prompts.push({ title, message });
    }
    return prompts;
  });
/** `model@base_url` entries: further endpoints tried in order when the one before is unavailable. */
const fallbackList = z
  .string()
  .default('')
  .transform((text, ctx) => {
    const entries = entriesOf(text);
    const endpoints: { model: string; baseURL: string }[] = [];
    for (const entry of entries) {
      const at = entry.indexOf('@');
      const model = at < 0 ? '' : entry.slice(0, at).trim();
      const baseURL = at < 0 ? '' : entry.slice(at + 1).trim();
      if (!model || !z.url({ protocol: /^https?$/ }).safeParse(baseURL).success) {
        ctx.addIssue({
          code: 'custom',
          message: `"${entry}" is not model@base_url (e.g. qwen2.5@http://localhost:11434/v1)`,
        });
        return z.NEVER;
      }
      endpoints.push({ model, baseURL });
    }
    return endpoints;
  });
const price = z.coerce.number().min(0).optional();
const globList = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text) => entriesOf(text));

/** Every environment variable thinkthread reads, with its default. `.env.example` mirrors this. */
const schema = z.object({
  // Model
  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  LLM_MODEL: z.string().trim().min(1).default('gpt-4o-mini'),
  LLM_MODELS: globList(''),
  LLM_TEMPERATURE: z.coerce.number().min(0).max(2).optional(),
  LLM_MAX_RETRIES: int(3, 0),
  LLM_TIMEOUT_MS: int(60_000),
  LLM_STREAM: bool(true),
  LLM_PROMPT_CACHE_KEY: z
    .enum(['auto', 'true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
    .default('auto')
    .transform((v) => (v === 'auto' ? v : ['true', '1', 'yes', 'on'].includes(v))),
  SUMMARY_MODEL: optionalText,
  LLM_FALLBACK: fallbackList,
  LLM_FALLBACK_KEYS: optionalText,
  LLM_FALLBACK_AFTER_MS: int(30_000, 0),
  LLM_FALLBACK_COOLDOWN_MS: int(60_000, 0),
  LLM_VISION: bool(false),

  // Agent
  AGENT_PROTOCOL: z.enum(['tools', 'react']).default('tools'),
  AGENT_MAX_STEPS: int(8),
  TOOL_TIMEOUT_MS: int(15_000),
  TOOL_CONCURRENCY: int(4),
  RUN_TIMEOUT_MS: int(120_000),
  ANSWER_MAX_CHARS: int(40_000, 100),
  SHOW_REASONING: bool(true),
  PROMPTS_DIR: z.string().default('./prompts'),

  // Tools
  CALCULATOR_WORKERS: z.coerce.number().int().min(1).max(16).default(2),
  WORKSPACE_DIR: z.string().default('./workspace'),
  READ_FILE_MAX_BYTES: int(1_000_000),
  READ_FILE_DENY: globList(DEFAULT_READ_FILE_DENY),
  TAVILY_API_KEY: optionalText,
  TAVILY_API_URL: url('https://api.tavily.com'),
  OPEN_METEO_GEOCODING_URL: url('https://geocoding-api.open-meteo.com'),
  OPEN_METEO_API_URL: url('https://api.open-meteo.com'),
  WIKIPEDIA_LANG: z
    .string()
    .regex(/^[a-z][a-z-]{1,15}$/, 'must be a Wikipedia language code such as en, de or zh')
    .default('en'),
  WIKIPEDIA_API_URL: z.string().default('https://{lang}.wikipedia.org'),
  DEFAULT_TIMEZONE: optionalText.refine((zone) => zone === undefined || isTimeZone(zone), {
    message:
      'is not a time zone this runtime knows; use an IANA name such as Europe/Berlin or America/New_York',
  }),
  MCP_CONFIG: optionalText,
  MCP_CONNECT_TIMEOUT_MS: int(10_000),

  // Tool calls that wait for a person's approval
  APPROVERS: z.enum(['asker', 'admins', 'asker+admins']).default('asker+admins'),
  APPROVAL_TIMEOUT_MS: int(600_000),
  APPROVAL_DEFAULT_MCP: z.enum(['never', 'always', 'once-per-channel']).default('always'),

  // What the bot reads besides the question
  CONTEXT_MAX_MESSAGES: z.coerce.number().int().min(0).max(1000).default(50),
  CONTEXT_MAX_TOKENS: int(3000),
  FOLLOW_THREADS: bool(true),
  FOLLOW_IDLE: duration('24h'),
  ATTACHMENT_MAX_BYTES: int(1_000_000),
  ATTACHMENT_MAX_TOKENS: int(8000),

  // Memory and runs
  DATABASE_URL: z.string().default('sqlite:./data/thinkthread.db'),
  DATABASE_POOL_SIZE: int(10),
  MEMORY_MAX_TOKENS: int(2000),
  MEMORY_KEEP_TURNS: int(4, 0),
  MEMORY_SUMMARY_MAX_TOKENS: int(600),
  RECALL_MAX_TOKENS: int(1500),
  NOTES_MAX_TOKENS: int(500),
  MEMORY_RETENTION_DAYS: int(0, 0),
  MAX_CONCURRENT_RUNS: int(16),
  MAX_QUEUED_PER_CHANNEL: int(5, 0),

  // Schedules
  SCHEDULE_ANYONE: bool(false),
  SCHEDULES_PER_PERSON: int(10, 0),
  SCHEDULE_CATCH_UP_MS: int(3_600_000, 0),

  // Platforms
  STREAM_EDIT_INTERVAL_MS: int(1000, 0),
  ANSWER_MAX_MESSAGES: int(4, 1),
  DISCORD_TOKEN: optionalText,
  DISCORD_GUILD_ID: optionalText,
  DISCORD_API_URL: url('https://discord.com/api'),
  DISCORD_SHARD_COUNT: int(1),
  SLACK_BOT_TOKEN: optionalText,
  SLACK_SIGNING_SECRET: optionalText,
  SLACK_APP_TOKEN: optionalText,
  SLACK_API_URL: url('https://slack.com/api/'),
  SLACK_TEAM_ID: optionalText.pipe(
    z
      .string()
      .regex(/^[TE][A-Z0-9]+$/, 'must be a team (T…) or Enterprise Grid (E…) ID')
      .optional(),
  ),
  SLACK_ASK_COMMAND: z
    .string()
    .regex(/^\/[\w-]+$/)
    .default('/ask'),
  SLACK_RESET_COMMAND: z
    .string()
    .regex(/^\/[\w-]+$/)
    .default('/reset'),
  SLACK_MEMORY_COMMAND: z
    .string()
    .regex(/^\/[\w-]+$/)
    .default('/memory'),
  SLACK_USAGE_COMMAND: z
    .string()
    .regex(/^\/[\w-]+$/)
    .default('/usage'),
  SLACK_TOOLS_COMMAND: z
    .string()
    .regex(/^\/[\w-]+$/)
    .default('/tools'),
  SLACK_SETTINGS_COMMAND: z
    .string()
    .regex(/^\/[\w-]+$/)
    .default('/settings'),
  SLACK_SCHEDULE_COMMAND: z
    .string()
    .regex(/^\/[\w-]+$/)
    .default('/schedule'),
  SLACK_STREAMING: z.enum(['native', 'edit']).default('native'),
  SLACK_TASK_DISPLAY: z.enum(['timeline', 'plan']).default('timeline'),
  SLACK_SUGGESTED_PROMPTS: suggestedPrompts,
  WEB_CHAT: bool(false),
  WEB_HOST: z
    .string()
    .trim()
    .regex(/^[\w.:-]+$/, 'must be a host name or an IP address, e.g. 127.0.0.1 or 0.0.0.0')
    .default('127.0.0.1'),
  WEB_CHAT_TOKEN: optionalText,
  WEB_AUTH: z.enum(['slack', 'discord', 'token', 'none']).optional(),
  WEB_PUBLIC_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  WEB_SESSION_SECRET: secret(32),
  WEB_SESSION_IDLE: duration('7d'),
  WEB_SESSION_MAX: duration('30d'),
  WEB_MEMBERSHIP_CHECK: duration('10m'),
  WEB_MAX_STREAMS: int(200),
  WEB_TRUST_PROXY: bool(false),
  MAX_SESSIONS: int(1000),
  SLACK_CLIENT_ID: optionalText,
  SLACK_CLIENT_SECRET: optionalText,
  SLACK_OIDC_ISSUER: url('https://slack.com'),
  DISCORD_CLIENT_ID: optionalText,
  DISCORD_CLIENT_SECRET: optionalText,
  DISCORD_OAUTH_URL: url('https://discord.com'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HEALTH_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  SHUTDOWN_GRACE_MS: int(8000, 0),

  // Access, limits and usage
  ALLOW_USERS: principalList,
  BLOCK_USERS: principalList,
  ALLOW_CHANNELS: idList,
  BLOCK_CHANNELS: idList,
  ALLOW_ROLES: idList,
  ALLOW_DMS: bool(true),
  ADMIN_USERS: principalList,
  RATE_LIMIT_USER: rateLimit('30/hour'),
  RATE_LIMIT_CHANNEL: rateLimit('120/hour'),
  TOKEN_BUDGET_USER_DAY: int(0, 0),
  TOKEN_BUDGET_CHANNEL_DAY: int(0, 0),
  TOKEN_BUDGET_DAY: int(0, 0),
  LLM_PRICE_INPUT_PER_MTOK: price,
  LLM_PRICE_OUTPUT_PER_MTOK: price,

  // Operations
  METRICS: bool(true),
  METRICS_TOKEN: secret(24),
  ADMIN_TOKEN: secret(24),
  RUN_LOG_RETENTION_DAYS: int(14, 0),
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  OTEL_CAPTURE_CONTENT: bool(false),
  // Unset: info, or warn for the terminal chat (so logs do not interleave with the conversation).
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
});

/** Every setting's name, in schema order; `.env.example` and the README's table list exactly these. */
export const CONFIG_KEYS = Object.keys(schema.shape) as (keyof z.output<typeof schema>)[];

/** How people prove who they are to the web chat. */
export type WebAuth = 'slack' | 'discord' | 'token' | 'none';

/** The shortest WEB_CHAT_TOKEN start-up accepts. */
export const MIN_WEB_TOKEN_CHARS = 24;

/** The parsed, typed configuration; WEB_AUTH unset is `token` with WEB_CHAT_TOKEN, else `none`. */
export type Config = Omit<z.output<typeof schema>, 'WEB_AUTH'> & { WEB_AUTH: WebAuth };

/** Names of the settings whose values are secrets: never logged, never shown. */
export const SECRET_KEYS = [
  'OPENAI_API_KEY',
  'LLM_FALLBACK_KEYS',
  'TAVILY_API_KEY',
  'DISCORD_TOKEN',
  'SLACK_BOT_TOKEN',
  'SLACK_SIGNING_SECRET',
  'SLACK_APP_TOKEN',
  'WEB_CHAT_TOKEN',
  'WEB_SESSION_SECRET',
  'SLACK_CLIENT_SECRET',
  'DISCORD_CLIENT_SECRET',
  'METRICS_TOKEN',
  'ADMIN_TOKEN',
] as const satisfies readonly (keyof Config)[];

/** Parses the environment once; throws a ConfigError listing every problem at once. */
export function parseConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings in .env mean "unset", so defaults apply.
  const cleaned: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && value.trim() !== '') cleaned[key] = value;
  }
  const result = schema.safeParse(cleaned);
  const problems: string[] = [];
  if (!result.success) {
    for (const issue of result.error.issues) {
      const key = issue.path.join('.');
      const given = key in cleaned && !SECRET_KEYS.includes(key as never) ? ` (got "${cleaned[key]}")` : '';
      problems.push(`${key}: ${plainWords(issue)}${given}`);
    }
  }
  const config: Config | undefined = result.data && {
    ...result.data,
    WEB_AUTH: result.data.WEB_AUTH ?? (result.data.WEB_CHAT_TOKEN ? 'token' : 'none'),
  };
  if (config) {
    if (!config.OPENAI_API_KEY && !config.OPENAI_BASE_URL) {
      problems.push(
        'OPENAI_API_KEY or OPENAI_BASE_URL: no model is configured. Set OPENAI_API_KEY for OpenAI, or ' +
          'OPENAI_BASE_URL for any OpenAI-compatible server (e.g. http://localhost:11434/v1 for Ollama).',
      );
    }
    if (config.SLACK_BOT_TOKEN && !config.SLACK_APP_TOKEN && !config.SLACK_SIGNING_SECRET) {
      problems.push(
        'SLACK_SIGNING_SECRET: required with SLACK_BOT_TOKEN in HTTP mode (or set SLACK_APP_TOKEN for Socket Mode).',
      );
    }
    if (config.SLACK_BOT_TOKEN?.startsWith('xapp-') || config.SLACK_APP_TOKEN?.startsWith('xoxb-')) {
      problems.push(
        'SLACK_BOT_TOKEN and SLACK_APP_TOKEN look swapped: the bot token starts with xoxb-, the app-level token with xapp-.',
      );
    }
    if ((config.SLACK_APP_TOKEN || config.SLACK_SIGNING_SECRET) && !config.SLACK_BOT_TOKEN) {
      problems.push('SLACK_BOT_TOKEN: required when SLACK_APP_TOKEN or SLACK_SIGNING_SECRET is set.');
    }
    if (config.WEB_CHAT) problems.push(...webAuthProblems(config));
  }
  const databaseUrl = config?.DATABASE_URL ?? cleaned.DATABASE_URL;
  if (databaseUrl) problems.push(...databaseProblems(databaseUrl));
  for (const key of ['ADMIN_USERS', 'ALLOW_USERS'] as const) {
    const addresses = config?.[key].filter((entry) => entry.startsWith('addr:')) ?? [];
    if (addresses.length > 0) {
      problems.push(
        `${key}: addr: entries name no one; only BLOCK_USERS takes addresses (got "${addresses[0]}")`,
      );
    }
  }
  if (problems.length > 0 || !config) throw new ConfigError(problems);
  return config;
}

/** What the web chat's sign-in lacks, as start-up problems. */
function webAuthProblems(config: Config): string[] {
  const problems: string[] = [];
  const needs = (keys: (keyof Config)[], why: string) => {
    for (const key of keys) if (!config[key]) problems.push(`${key}: required ${why}.`);
  };
  switch (config.WEB_AUTH) {
    case 'none':
      if (!isLoopback(config.WEB_HOST)) {
        problems.push(
          `WEB_AUTH: the web chat would be open to anyone on WEB_HOST=${config.WEB_HOST}; set WEB_AUTH=slack or ` +
            `discord (sign-in) or a WEB_CHAT_TOKEN of at least ${MIN_WEB_TOKEN_CHARS} random characters, or keep ` +
            'WEB_HOST=127.0.0.1.',
        );
      }
      break;
    case 'token':
      if (!config.WEB_CHAT_TOKEN) needs(['WEB_CHAT_TOKEN'], 'with WEB_AUTH=token');
      else if (config.WEB_CHAT_TOKEN.length < MIN_WEB_TOKEN_CHARS) {
        problems.push(
          `WEB_CHAT_TOKEN: must be at least ${MIN_WEB_TOKEN_CHARS} characters (a long random value, e.g. ` +
            '`openssl rand -base64 24`).',
        );
      }
      break;
    case 'slack':
      needs(
        ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'WEB_PUBLIC_URL'],
        'for WEB_AUTH=slack (Sign in with Slack)',
      );
      if (!config.SLACK_TEAM_ID && !config.SLACK_BOT_TOKEN) {
        problems.push(
          'SLACK_TEAM_ID: required for WEB_AUTH=slack without SLACK_BOT_TOKEN: sign-in admits only that workspace (T…) or Enterprise Grid org (E…).',
        );
      }
      break;
    case 'discord':
      needs(
        ['DISCORD_CLIENT_ID', 'DISCORD_CLIENT_SECRET', 'WEB_PUBLIC_URL'],
        'for WEB_AUTH=discord (Sign in with Discord)',
      );
      if (!config.DISCORD_GUILD_ID && !config.DISCORD_TOKEN) {
        problems.push(
          'DISCORD_GUILD_ID: required for WEB_AUTH=discord without DISCORD_TOKEN: sign-in admits only members of that server.',
        );
      }
      break;
  }
  return problems;
}

/** Whether the runtime knows `zone` (an IANA name such as Europe/Berlin). */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** What is wrong with DATABASE_URL, checked with the rest (never echoing it: a Postgres URL holds a password). */
function databaseProblems(databaseUrl: string): string[] {
  try {
    if (isPostgresUrl(databaseUrl)) parsePostgresUrl(databaseUrl);
    else sqlitePathOf(databaseUrl);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return [...err.problems];
    throw err;
  }
}

/** A validator's issue said in plain words: what the setting must be. */
function plainWords(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected === 'number' ? 'must be a number' : `must be a ${issue.expected}`;
    case 'too_small':
      return issue.origin === 'string'
        ? `must be at least ${issue.minimum} characters`
        : `must be ${issue.minimum} or more`;
    case 'too_big':
      return issue.origin === 'string'
        ? `must be at most ${issue.maximum} characters`
        : `must be ${issue.maximum} or less`;
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      if (issue.format === 'url') return 'must be an http:// or https:// URL';
      // Our patterns carry their own words; zod's default names the pattern.
      if (issue.format === 'regex')
        return issue.message.startsWith('Invalid') ? 'is not in the expected form' : issue.message;
      return `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return 'must be a whole number';
    default:
      return issue.message;
  }
}
