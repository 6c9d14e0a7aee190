import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import { ConfigError } from '../src/core/errors.js';

function problemsOf(env: Record<string, string>): string[] {
  try {
    parseConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return [...err.problems];
    throw err;
  }
  return [];
}

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const config = parseConfig({ OPENAI_API_KEY: 'sk-abcdef' });
    expect(config).toMatchObject({
      LLM_MODEL: 'gpt-4o-mini',
      AGENT_PROTOCOL: 'tools',
      AGENT_MAX_STEPS: 8,
      TOOL_TIMEOUT_MS: 15_000,
      RUN_TIMEOUT_MS: 120_000,
      WORKSPACE_DIR: './workspace',
      DATABASE_URL: 'sqlite:./data/thinkthread.db',
      MEMORY_MAX_TOKENS: 2000,
      MEMORY_KEEP_TURNS: 4,
      MAX_CONCURRENT_RUNS: 16,
      MAX_QUEUED_PER_CHANNEL: 5,
      STREAM_EDIT_INTERVAL_MS: 1000,
      PORT: 3000,
      SHUTDOWN_GRACE_MS: 8000,
      LLM_STREAM: true,
    });
    expect(config.TAVILY_API_KEY).toBeUndefined();
    expect(config.LOG_LEVEL).toBeUndefined(); // the root picks info, or warn for the terminal chat
    expect(config.HEALTH_PORT).toBeUndefined();
  });

  it('accepts a base URL alone (Ollama, vLLM) and treats empty values as unset', () => {
    const config = parseConfig({
      OPENAI_BASE_URL: 'http://localhost:11434/v1',
      OPENAI_API_KEY: '',
      LLM_MODEL: '',
    });
    expect(config.OPENAI_API_KEY).toBeUndefined();
    expect(config.LLM_MODEL).toBe('gpt-4o-mini');
  });

  it('reads the Slack streaming settings and up to 4 suggested prompts', () => {
    const config = parseConfig({
      OPENAI_API_KEY: 'sk-abcdef',
      SLACK_SUGGESTED_PROMPTS: ' Maths | What is 2 + 2? ; Weather|Is it raining in Paris? (a|b) ;',
    });
    expect(config.SLACK_STREAMING).toBe('native');
    expect(config.SLACK_TASK_DISPLAY).toBe('timeline');
    expect(config.SLACK_SUGGESTED_PROMPTS).toEqual([
      { title: 'Maths', message: 'What is 2 + 2?' },
      { title: 'Weather', message: 'Is it raining in Paris? (a|b)' },
    ]);
    expect(parseConfig({ OPENAI_API_KEY: 'sk-abcdef' }).SLACK_SUGGESTED_PROMPTS).toEqual([]);
  });

  it('refuses more than 4 suggested prompts, a prompt without a message, and unknown streaming modes', () => {
    const five = Array.from({ length: 5 }, (_, i) => `T${i}|M${i}`).join(';');
    expect(problemsOf({ OPENAI_API_KEY: 'sk-abcdef', SLACK_SUGGESTED_PROMPTS: five })).toEqual([
      'SLACK_SUGGESTED_PROMPTS: at most 4 prompts (got 5) (got "T0|M0;T1|M1;T2|M2;T3|M3;T4|M4")',
    ]);
    const problems = problemsOf({
      OPENAI_API_KEY: 'sk-abcdef',
      SLACK_SUGGESTED_PROMPTS: 'Maths|What is 2 + 2?;Weather',
      SLACK_STREAMING: 'fast',
      SLACK_TASK_DISPLAY: 'list',
    });
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/SLACK_SUGGESTED_PROMPTS: "Weather" is not title\|message/);
    expect(problems.join('\n')).toMatch(/SLACK_STREAMING: must be one of native, edit \(got "fast"\)/);
    expect(problems.join('\n')).toMatch(/SLACK_TASK_DISPLAY: must be one of timeline, plan/);
  });

  it('says what to set when no model is configured', () => {
    expect(problemsOf({}).join('\n')).toMatch(/OPENAI_API_KEY or OPENAI_BASE_URL/);
  });

  it('stops on malformed access and limit settings, all at once', () => {
    const problems = problemsOf({
      OPENAI_API_KEY: 'sk-abcdef',
      RATE_LIMIT_USER: 'lots',
      RATE_LIMIT_CHANNEL: '0/hour',
      TOKEN_BUDGET_DAY: '-5',
      ALLOW_USERS: 'U1, U 2',
      LLM_PRICE_INPUT_PER_MTOK: 'cheap',
    }).join('\n');
    expect(problems).toMatch(/RATE_LIMIT_USER: must be N\/minute, N\/hour, N\/day or off/);
    expect(problems).toMatch(/RATE_LIMIT_CHANNEL: /);
    expect(problems).toMatch(/TOKEN_BUDGET_DAY: /);
    expect(problems).toMatch(/ALLOW_USERS: "U 2" is not a person/);
    expect(problems).toMatch(/LLM_PRICE_INPUT_PER_MTOK: /);
  });

  it('notices swapped Slack tokens and a port out of range', () => {
    const swapped = problemsOf({
      OPENAI_API_KEY: 'sk-abcdef',
      SLACK_BOT_TOKEN: 'xapp-1-app-token',
      SLACK_APP_TOKEN: 'xoxb-bot-token',
    }).join('\n');
    expect(swapped).toMatch(/SLACK_BOT_TOKEN and SLACK_APP_TOKEN look swapped/);
    expect(swapped).not.toContain('xoxb-bot-token'); // tokens are never echoed
    expect(problemsOf({ OPENAI_API_KEY: 'sk-abcdef', PORT: '99999' }).join('\n')).toMatch(/PORT: .*65535/);
  });

  it('reads access lists and limits', () => {
    const config = parseConfig({
      OPENAI_API_KEY: 'sk-abcdef',
      ALLOW_CHANNELS: ' C1 ,987654321098765432,',
      RATE_LIMIT_USER: '10/minute',
      RATE_LIMIT_CHANNEL: 'off',
    });
    expect(config.ALLOW_CHANNELS).toEqual(['C1', '987654321098765432']);
    expect(config.RATE_LIMIT_USER).toMatchObject({ limit: 10, windowMs: 60_000 });
    expect(config.RATE_LIMIT_CHANNEL).toBeNull();
    expect(config.ALLOW_DMS).toBe(true);
  });

  it('reports every bad variable at once, naming each', () => {
    const problems = problemsOf({
      OPENAI_API_KEY: 'sk-abcdef',
      AGENT_MAX_STEPS: '0',
      AGENT_PROTOCOL: 'telepathy',
      TOOL_TIMEOUT_MS: 'soon',
      OPENAI_BASE_URL: 'ftp://example.com',
      LLM_STREAM: 'maybe',
    });
    const text = problems.join('\n');
    for (const name of [
      'AGENT_MAX_STEPS',
      'AGENT_PROTOCOL',
      'TOOL_TIMEOUT_MS',
      'OPENAI_BASE_URL',
      'LLM_STREAM',
    ]) {
      expect(text).toContain(name);
    }
    expect(problems).toHaveLength(5);
  });

  it('says every mistake in plain words, the time zone and the database URL among them, in one list', () => {
    const problems = problemsOf({
      OPENAI_API_KEY: 'sk-abcdef',
      PORT: 'abc',
      HEALTH_PORT: '70000',
      LLM_TIMEOUT_MS: '-5',
      DEFAULT_TIMEZONE: 'Mars/Olympus',
      DATABASE_URL: 'mysql://root:hunter2@db/x',
    });
    expect(problems).toEqual([
      'LLM_TIMEOUT_MS: must be 1 or more (got "-5")',
      expect.stringMatching(
        /^DEFAULT_TIMEZONE: is not a time zone this runtime knows; .* \(got "Mars\/Olympus"\)$/,
      ),
      'PORT: must be a number (got "abc")',
      'HEALTH_PORT: must be 65535 or less (got "70000")',
      expect.stringMatching(/^DATABASE_URL: "mysql:" is not supported; supported: sqlite:/),
    ]);
    expect(problems.join('\n')).not.toMatch(/hunter2|Invalid input|expected number/);
    expect(
      parseConfig({ OPENAI_API_KEY: 'sk-abcdef', DEFAULT_TIMEZONE: 'Asia/Tokyo' }).DEFAULT_TIMEZONE,
    ).toBe('Asia/Tokyo');
  });

  it('never repeats a secret value in an error', () => {
    const text = problemsOf({
      OPENAI_API_KEY: 'sk-abcdef',
      DISCORD_TOKEN: 'x',
      SLACK_BOT_TOKEN: 'xoxb-secret-123',
    }).join('\n');
    expect(text).toContain('SLACK_SIGNING_SECRET');
    expect(text).not.toContain('xoxb-secret-123');
  });

  it('requires a signing secret or an app token with a Slack bot token', () => {
    expect(problemsOf({ OPENAI_API_KEY: 'sk-abcdef', SLACK_BOT_TOKEN: 'xoxb-1' }).join()).toMatch(
      /SLACK_SIGNING_SECRET/,
    );
    expect(
      problemsOf({ OPENAI_API_KEY: 'sk-abcdef', SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1' }),
    ).toEqual([]);
    expect(problemsOf({ OPENAI_API_KEY: 'sk-abcdef', SLACK_APP_TOKEN: 'xapp-1' }).join()).toMatch(
      /SLACK_BOT_TOKEN/,
    );
  });
});

describe('web sign-in settings', () => {
  const base = {
    OPENAI_API_KEY: 'sk-abcdef',
    WEB_CHAT: 'true',
    WEB_PUBLIC_URL: 'https://chat.example.com',
  };
  it('needs the workspace or server sign-in admits: a bot token, SLACK_TEAM_ID or DISCORD_GUILD_ID', () => {
    const slack = { ...base, WEB_AUTH: 'slack', SLACK_CLIENT_ID: 'id', SLACK_CLIENT_SECRET: 'secret' };
    expect(problemsOf(slack).join()).toMatch(
      /SLACK_TEAM_ID: required for WEB_AUTH=slack without SLACK_BOT_TOKEN/,
    );
    expect(problemsOf({ ...slack, SLACK_TEAM_ID: 'T0ACME01' })).toEqual([]);
    expect(problemsOf({ ...slack, SLACK_TEAM_ID: 'E0ORG0001' })).toEqual([]);
    expect(problemsOf({ ...slack, SLACK_TEAM_ID: 'acme' }).join()).toMatch(/SLACK_TEAM_ID/);
    const discord = {
      ...base,
      WEB_AUTH: 'discord',
      DISCORD_CLIENT_ID: 'id',
      DISCORD_CLIENT_SECRET: 'secret',
    };
    expect(problemsOf(discord).join()).toMatch(/DISCORD_GUILD_ID: required for WEB_AUTH=discord/);
    expect(problemsOf({ ...discord, DISCORD_GUILD_ID: '900000000000000001' })).toEqual([]);
    expect(problemsOf({ ...discord, DISCORD_TOKEN: 'bot-token' })).toEqual([]);
  });

  it('reads session lengths as durations, and says so when one is not', () => {
    const config = parseConfig({
      ...base,
      WEB_SESSION_IDLE: '12h',
      WEB_SESSION_MAX: '2d',
      WEB_MEMBERSHIP_CHECK: '90s',
    });
    expect([config.WEB_SESSION_IDLE, config.WEB_SESSION_MAX, config.WEB_MEMBERSHIP_CHECK]).toEqual([
      12 * 3_600_000,
      2 * 86_400_000,
      90_000,
    ]);
    expect(problemsOf({ ...base, WEB_SESSION_IDLE: 'a week' })).toEqual([
      'WEB_SESSION_IDLE: must be a duration, e.g. 30s, 10m, 24h or 7d (got "a week")',
    ]);
  });
});
