import { describe, expect, it, vi } from 'vitest';
import { createTools } from '../src/core/tools/registry.js';
import { coreOptionsFrom, toolSettingsFrom } from '../src/core-options.js';
import { testConfig } from './helpers/config.js';

// What each tool factory is handed when the registry builds the tools, by tool.
const { handed, spy } = vi.hoisted(() => {
  const handed = new Map<string, unknown>();
  const spy =
    <S, T>(tool: string, factory: (settings: S) => T) =>
    (settings: S): T => {
      handed.set(tool, settings);
      return factory(settings);
    };
  return { handed, spy };
});

vi.mock(import('../src/core/tools/current-time.js'), async (original) => {
  const mod = await original();
  return { ...mod, currentTimeTool: spy('current_time', mod.currentTimeTool) };
});
vi.mock(import('../src/core/tools/weather.js'), async (original) => {
  const mod = await original();
  return { ...mod, weatherTool: spy('weather', mod.weatherTool) };
});
vi.mock(import('../src/core/tools/wikipedia.js'), async (original) => {
  const mod = await original();
  return { ...mod, wikipediaTool: spy('wikipedia', mod.wikipediaTool) };
});
vi.mock(import('../src/core/tools/web-search.js'), async (original) => {
  const mod = await original();
  return { ...mod, webSearchTool: spy('web_search', mod.webSearchTool) };
});
vi.mock(import('../src/core/tools/read-file.js'), async (original) => {
  const mod = await original();
  return { ...mod, readFileTool: spy('read_file', mod.readFileTool) };
});

const secrets = {
  OPENAI_API_KEY: 'sk-openai-secret-0001',
  TAVILY_API_KEY: 'tvly-secret-0002',
  DISCORD_TOKEN: 'discord-secret-0003',
  SLACK_BOT_TOKEN: 'xoxb-slack-secret-0004',
  SLACK_SIGNING_SECRET: 'slack-signing-secret-0005',
  SLACK_APP_TOKEN: 'xapp-slack-secret-0006',
};
const platformTokens = [
  secrets.DISCORD_TOKEN,
  secrets.SLACK_BOT_TOKEN,
  secrets.SLACK_SIGNING_SECRET,
  secrets.SLACK_APP_TOKEN,
];
const config = testConfig({ ...secrets, WORKSPACE_DIR: './somewhere', DEFAULT_TIMEZONE: 'Asia/Tokyo' });

describe('the core options built from the configuration', () => {
  it('hand each tool factory its own settings and no platform token or other secret', () => {
    const names = createTools(toolSettingsFrom(config)).map((t) => t.name);
    expect(names).toEqual(['calculator', 'current_time', 'weather', 'wikipedia', 'web_search', 'read_file']);
    expect([...handed.keys()].sort()).toEqual(
      ['current_time', 'read_file', 'weather', 'web_search', 'wikipedia'].sort(),
    );
    for (const [tool, settings] of handed) {
      const seen = JSON.stringify(settings);
      for (const token of [...platformTokens, secrets.OPENAI_API_KEY])
        expect(seen, tool).not.toContain(token);
      if (tool !== 'web_search') expect(seen, tool).not.toContain(secrets.TAVILY_API_KEY);
    }
    expect(handed.get('read_file')).toEqual({
      WORKSPACE_DIR: './somewhere',
      READ_FILE_MAX_BYTES: 1_000_000,
      READ_FILE_DENY: ['.env*', '.envrc', '*.pem', '*.key', 'id_*', '!.env.example'],
    });
    expect(handed.get('web_search')).toEqual({
      TAVILY_API_KEY: secrets.TAVILY_API_KEY,
      TAVILY_API_URL: 'https://api.tavily.com',
    });
  });

  it('carry no platform token anywhere the core can read it', () => {
    const seen = JSON.stringify(coreOptionsFrom(config));
    for (const token of platformTokens) expect(seen).not.toContain(token);
  });

  it('scrub every secret, platform tokens included, from text the core redacts', () => {
    const { redact } = coreOptionsFrom(config);
    const text = Object.values(secrets).join(' and ');
    const scrubbed = redact(`the tool failed: ${text}`);
    for (const secret of Object.values(secrets)) expect(scrubbed).not.toContain(secret);
    expect(scrubbed).toContain('the tool failed');
  });

  it('carry the settings the core runs by', () => {
    const options = coreOptionsFrom(testConfig({ MEMORY_MAX_TOKENS: '321', SUMMARY_MODEL: 'small' }));
    expect(options.memory.MEMORY_MAX_TOKENS).toBe(321);
    expect(options.summaryModel).toBe('small');
    expect(options.tools.currentTime).toEqual({ DEFAULT_TIMEZONE: undefined });
  });
});
