import { z } from 'zod';
import { accessSettings, operationsSettings } from './schema-access.js';
import { chatPlatformSettings } from './schema-chat-platforms.js';
import { knowledgeSettings } from './schema-knowledge.js';
import { contextSettings, memorySettings, scheduleSettings } from './schema-memory.js';
import { agentSettings, modelSettings } from './schema-model.js';
import { approvalSettings, toolSettings } from './schema-tools.js';
import { serverSettings, webSettings } from './schema-web.js';

/** The settings in the order the docs and `.env.example` show them. */
export const SETTING_GROUPS = [
  modelSettings,
  agentSettings,
  toolSettings,
  approvalSettings,
  contextSettings,
  knowledgeSettings,
  memorySettings,
  scheduleSettings,
  chatPlatformSettings,
  webSettings,
  serverSettings,
  accessSettings,
  operationsSettings,
];

/** Every environment variable thinkthread reads, with its default and description. */
export const schema = z.object({
  ...modelSettings.shape,
  ...agentSettings.shape,
  ...toolSettings.shape,
  ...approvalSettings.shape,
  ...contextSettings.shape,
  ...knowledgeSettings.shape,
  ...memorySettings.shape,
  ...scheduleSettings.shape,
  ...chatPlatformSettings.shape,
  ...webSettings.shape,
  ...serverSettings.shape,
  ...accessSettings.shape,
  ...operationsSettings.shape,
});

/** Every setting's name, in schema order; docs/configuration.md and `.env.example` list exactly these. */
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
  'EMBEDDINGS_API_KEY',
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
