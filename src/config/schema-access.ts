import { z } from 'zod';
import { bool, int, optionalUrl, price, rateLimit, secret } from './fields.js';
import { idList, principalList } from './list-fields.js';
import { settingGroup } from './setting-group.js';

/** Who may ask, how much, and what it cost. */
export const accessSettings = settingGroup({
  title: 'Who may ask, how much, and what it cost',
  intro:
    'People are `platform:id` (`slack:U…`, `slack:T…:U…`, `discord:…`, `web:…`, `console:…`); a bare ID means ' +
    'Slack or Discord. Channels are IDs (Discord snowflakes, Slack `C…` IDs). Lists are comma-separated. An ' +
    'empty allow list lets everyone in; a block always wins; a thread counts as its parent channel.',
  page: 'access.md',
  shape: {
    ALLOW_USERS: principalList.describe('People allowed to ask; empty: everyone.'),
    BLOCK_USERS: principalList.describe(
      'People refused; also web chat client addresses: `addr:203.0.113.7`, `addr:198.51.100.0/24`.',
    ),
    ALLOW_CHANNELS: idList.describe('Channel IDs the bot answers in; empty: every channel.'),
    BLOCK_CHANNELS: idList.describe('Channel IDs the bot never answers in.'),
    ALLOW_ROLES: idList.describe(
      'Discord role IDs; a member with any of them is allowed (with `ALLOW_USERS`, either suffices).',
    ),
    ALLOW_DMS: bool(true).describe(
      '`false`: a DM gets one short refusal (DMs are governed by this alone, not by `ALLOW_CHANNELS`).',
    ),
    ADMIN_USERS: principalList.describe(
      'Admins: never limited, may change channel settings, see the top users and channels in `/usage`. ' +
        'Discord members with Manage Server and Slack workspace admins and owners are admins too.',
    ),
    RATE_LIMIT_USER: rateLimit('30/hour').describe(
      'Questions one person may ask per window: `N/minute`, `N/hour` or `N/day`, or `off`.',
    ),
    RATE_LIMIT_CHANNEL: rateLimit('120/hour').describe(
      'Questions one channel may ask per window: `N/minute`, `N/hour` or `N/day`, or `off`.',
    ),
    TOKEN_BUDGET_USER_DAY: int(0, 0).describe(
      'Prompt + completion tokens one person may spend per calendar day in `DEFAULT_TIMEZONE`; `0`: no budget.',
    ),
    TOKEN_BUDGET_CHANNEL_DAY: int(0, 0).describe(
      'Tokens one channel may spend per day (summaries count for their channel); `0`: no budget.',
    ),
    TOKEN_BUDGET_DAY: int(0, 0).describe('Tokens the whole bot may spend per day; `0`: no budget.'),
    LLM_PRICE_INPUT_PER_MTOK: price.describe(
      'USD per million prompt tokens: `/usage`, `npm run usage` and the admin page then show estimated costs.',
    ),
    LLM_PRICE_OUTPUT_PER_MTOK: price.describe('USD per million completion tokens.'),
  },
});

/** Metrics, the admin page, traces and logs. */
export const operationsSettings = settingGroup({
  title: 'Operations',
  intro: 'Metrics, the admin page, traces and logs.',
  shape: {
    METRICS: bool(true).describe(
      'Serve Prometheus metrics at `GET /metrics` on the HTTP server (no label carries user text or secrets).',
    ),
    METRICS_TOKEN: secret(24).describe(
      'Bearer token `/metrics` requires on a non-loopback `PORT` (24+ characters); without it `/metrics` is ' +
        'served only on `HEALTH_PORT` and on loopback.',
    ),
    ADMIN_TOKEN: secret(24).describe(
      'Bearer token for the admin page `/admin` when no web sign-in is configured (24+ characters); with ' +
        'sign-in, admins (`ADMIN_USERS`) open it signed in (docs/admin.md).',
    ),
    RUN_LOG_RETENTION_DAYS: int(14, 0).describe(
      "Days each run's steps, model calls and tool calls are kept for the admin page; `0` keeps none.",
    ),
    OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl().describe(
      'OpenTelemetry: an OTLP/HTTP endpoint turns tracing on; the standard `OTEL_*` variables apply ' +
        '(docs/tracing.md).',
    ),
    OTEL_CAPTURE_CONTENT: bool(false).describe(
      '`true` puts message and tool contents on the spans (off: sizes and names only).',
    ),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional().meta({
      description:
        '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`; logs are JSON on stderr, secrets scrubbed.',
      unset: '`info`, or `warn` in the terminal chat (so logs do not interleave with the conversation)',
    }),
  },
});
