import type { z } from 'zod';
import { ConfigError } from '../core/errors.js';
import { sqlitePathOf } from '../store/create-store.js';
import { isPostgresUrl, parsePostgresUrl } from '../store/postgres/postgres-url.js';
import { type Config, SECRET_KEYS, schema } from './schema.js';
import { webAuthProblems } from './web-auth-problems.js';

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
  if (config) problems.push(...crossChecks(config));
  const databaseUrl = config?.DATABASE_URL ?? cleaned.DATABASE_URL;
  if (databaseUrl) problems.push(...databaseProblems(databaseUrl));
  if (problems.length > 0 || !config) throw new ConfigError(problems);
  return config;
}

/** Problems no single setting shows: settings that need each other, or contradict each other. */
function crossChecks(config: Config): string[] {
  const problems: string[] = [];
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
  for (const key of ['ADMIN_USERS', 'ALLOW_USERS'] as const) {
    const addresses = config[key].filter((entry) => entry.startsWith('addr:'));
    if (addresses.length > 0) {
      problems.push(
        `${key}: addr: entries name no one; only BLOCK_USERS takes addresses (got "${addresses[0]}")`,
      );
    }
  }
  return problems;
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
