import { z } from 'zod';
import { DEFAULT_READ_FILE_DENY } from '../core/tools/deny-list.js';
import { globList, int, optionalText, timeZone, url } from './fields.js';
import { settingGroup } from './setting-group.js';

/** The built-in tools and the MCP servers that lend theirs. */
export const toolSettings = settingGroup({
  title: 'Tools',
  intro: 'The built-in tools, and the MCP servers that lend the bot theirs.',
  page: 'tools.md',
  shape: {
    CALCULATOR_WORKERS: z.coerce
      .number()
      .int()
      .min(1)
      .max(16)
      .default(2)
      .describe('Calculator processes (1–16): a costly expression holds one of them, not every channel.'),
    WORKSPACE_DIR: z.string().default('./workspace').describe('The only folder `read_file` may read.'),
    READ_FILE_MAX_BYTES: int(1_000_000).describe('Largest file `read_file` opens, in bytes.'),
    READ_FILE_DENY: globList(DEFAULT_READ_FILE_DENY).describe(
      'File names `read_file` refuses: comma-separated globs, compared in any case; a leading `!` allows again.',
    ),
    TAVILY_API_KEY: optionalText.describe(
      'An API key of [Tavily](https://tavily.com): `web_search` is offered to the model only when it is set.',
    ),
    TAVILY_API_URL: url('https://api.tavily.com').describe('Tavily base URL.'),
    OPEN_METEO_GEOCODING_URL: url('https://geocoding-api.open-meteo.com').describe(
      'Geocoding service of the `weather` tool.',
    ),
    OPEN_METEO_API_URL: url('https://api.open-meteo.com').describe('Forecast service of the `weather` tool.'),
    WIKIPEDIA_LANG: z
      .string()
      .regex(/^[a-z][a-z-]{1,15}$/, 'must be a Wikipedia language code such as en, de or zh')
      .default('en')
      .describe('Wikipedia language code, e.g. `en`, `de` or `zh`.'),
    WIKIPEDIA_API_URL: z
      .string()
      .default('https://{lang}.wikipedia.org')
      .describe('Wikipedia base URL; `{lang}` is replaced by `WIKIPEDIA_LANG`.'),
    DEFAULT_TIMEZONE: timeZone().meta({
      description:
        'IANA zone (e.g. `Europe/Berlin`) for `current_time` when none is asked for, for schedules, and for ' +
        'the calendar days of budgets and usage reports.',
      unset: 'the system zone',
    }),
    MCP_CONFIG: optionalText.meta({
      description:
        'File of the MCP servers whose tools the bot offers, in the Claude Desktop / Cursor format ' +
        '(see docs/tools.md).',
      unset: '`./mcp.json` when that file exists, else none',
    }),
    MCP_CONNECT_TIMEOUT_MS: int(10_000).describe(
      'How long each MCP server may take to start and list its tools; a slow one is retried in the background.',
    ),
  },
});

/** Tool calls that wait for a person's yes. */
export const approvalSettings = settingGroup({
  title: "Tool calls that wait for a person's approval",
  page: 'tools.md',
  shape: {
    APPROVERS: z
      .enum(['asker', 'admins', 'asker+admins'])
      .default('asker+admins')
      .describe('Who may approve or deny a pending tool call: `asker`, `admins` or `asker+admins`.'),
    APPROVAL_TIMEOUT_MS: int(600_000).describe(
      'How long a pending call waits (10 minutes); no answer by then denies it, and the model is told so.',
    ),
    APPROVAL_DEFAULT_MCP: z
      .enum(['never', 'always', 'once-per-channel'])
      .default('always')
      .describe(
        'MCP tools whose `mcp.json` entry says nothing ask first: `never`, `always` or `once-per-channel`.',
      ),
  },
});
