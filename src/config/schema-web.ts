import { z } from 'zod';
import { bool, duration, int, optionalText, optionalUrl, port, secret, url } from './fields.js';
import { settingGroup } from './setting-group.js';

/** The web chat, who may use it, and its sessions. */
export const webSettings = settingGroup({
  title: 'Web chat and sign-in',
  page: 'web.md',
  shape: {
    WEB_CHAT: bool(false).describe(
      '`true` serves a chat page at `http://WEB_HOST:PORT/` (with no other platform, instead of the terminal chat).',
    ),
    WEB_HOST: z
      .string()
      .trim()
      .regex(/^[\w.:-]+$/, 'must be a host name or an IP address, e.g. 127.0.0.1 or 0.0.0.0')
      .default('127.0.0.1')
      .describe(
        "Address `PORT` binds to while the web chat is on (loopback: this machine only). With Slack's HTTP " +
          'mode too, set `0.0.0.0` (and sign-in or a token) so Slack can reach it.',
      ),
    WEB_CHAT_TOKEN: optionalText.describe(
      'The token the page asks for once (`WEB_AUTH=token`); at least 24 random characters.',
    ),
    WEB_AUTH: z
      .enum(['slack', 'discord', 'token', 'none'])
      .optional()
      .meta({
        description:
          'Who may use the web chat: `slack` or `discord` (people sign in with their Slack or Discord account ' +
          'and are that person to the access lists, limits and admins), `token` (`WEB_CHAT_TOKEN`), or `none` ' +
          '(loopback only).',
        unset: '`token` when `WEB_CHAT_TOKEN` is set, else `none`',
      }),
    WEB_PUBLIC_URL: optionalUrl().describe(
      "The web chat's public address; sign-in returns to `WEB_PUBLIC_URL/auth/callback`.",
    ),
    WEB_SESSION_SECRET: secret(32).meta({
      description: "Signs the web chat's session and browser cookies (32+ characters).",
      unset:
        "a key the bot generates once and keeps in its database, so restarts and replicas on it keep everyone's " +
        'sessions and chats',
    }),
    WEB_SESSION_IDLE: duration('7d').describe(
      'A signed-in web session ends after this long unused (durations: `30s`, `10m`, `24h`, `7d`); ' +
        'sign-out, an admin or a block ends it at once.',
    ),
    WEB_SESSION_MAX: duration('30d').describe(
      'A signed-in web session ends this long after signing in, however much it is used.',
    ),
    WEB_MEMBERSHIP_CHECK: duration('10m').describe(
      "How often a signed-in person's membership of the Slack workspace or Discord server is checked again; " +
        'someone who left, was deactivated or revoked the app is signed out at the next check.',
    ),
    WEB_MAX_STREAMS: int(200).describe(
      'Event streams the web chat keeps open at once (8 per client address at most); the rest get 429.',
    ),
    WEB_TRUST_PROXY: bool(false).describe(
      '`true`: the client address is the last hop of `X-Forwarded-For` (set it only behind your own reverse ' +
        "proxy); token users' limits count per browser and per client address.",
    ),
    MAX_SESSIONS: int(1000).describe(
      'Web conversations whose live state is kept; past this the oldest idle ones are forgotten.',
    ),
    SLACK_CLIENT_ID: optionalText.describe("Sign in with Slack (OpenID Connect): the Slack app's client ID."),
    SLACK_CLIENT_SECRET: optionalText.describe("Sign in with Slack: the Slack app's client secret."),
    SLACK_OIDC_ISSUER: url('https://slack.com').describe(
      "Slack's OpenID issuer (discovery at `/.well-known/openid-configuration`).",
    ),
    DISCORD_CLIENT_ID: optionalText.describe(
      'Sign in with Discord (OAuth2 with PKCE, `identify` and `guilds.members.read` scopes): the Discord ' +
        "application's client ID.",
    ),
    DISCORD_CLIENT_SECRET: optionalText.describe(
      "Sign in with Discord: the Discord application's client secret.",
    ),
    DISCORD_OAUTH_URL: url('https://discord.com').describe(
      "Discord's OAuth2 base (`/oauth2/authorize`, `/api/oauth2/token`).",
    ),
  },
});

/** The one HTTP server, its health checks, and shutdown. */
export const serverSettings = settingGroup({
  title: 'HTTP server and shutdown',
  page: 'deploy.md',
  shape: {
    PORT: port()
      .default(3000)
      .describe(
        "Port of the one HTTP server: the web chat, Slack's HTTP mode (`POST /slack/events`), `GET /healthz`, " +
          '`GET /readyz` and `GET /metrics`. It listens whenever a platform needs it.',
      ),
    HEALTH_PORT: port()
      .optional()
      .meta({
        description:
          'Also serve `GET /healthz`, `GET /readyz` and `GET /metrics` on this port, for any deployment ' +
          '(Discord-only, Socket Mode), e.g. 8080, which the Docker image sets (so `.env.example` leaves it ' +
          'commented: `--env-file .env` would blank it).',
        unset: 'none',
        commented: true,
      }),
    SHUTDOWN_GRACE_MS: int(8000, 0).describe(
      'On SIGTERM, answers in flight get this long to finish; then they are cancelled with a short note.',
    ),
  },
});
