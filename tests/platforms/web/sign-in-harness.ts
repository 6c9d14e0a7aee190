import { expect } from 'vitest';
import {
  type DiscordOAuthUser,
  type FakeDiscordOAuth,
  type FakeGuild,
  startFakeDiscordOAuth,
} from '../../fakes/discord-oauth.js';
import { type FakeSlackOidc, type SlackOidcUser, startFakeSlackOidc } from '../../fakes/slack-oidc.js';
import { freePort } from '../../helpers/free-port.js';
import type { WebClient } from './web-client.js';
import { startWebBed, type WebBed } from './web-harness.js';

/** The Slack user the fake signs in by default. */
export const SLACK_USER: SlackOidcUser = { userId: 'U0ALICE01', teamId: 'T0ACME01', name: 'Alice Example' };
/** Her principal, as the Slack chat knows her. */
export const SLACK_PRINCIPAL = 'slack:T0ACME01:U0ALICE01';
/** The Discord user the fake signs in by default. */
export const DISCORD_USER: DiscordOAuthUser = { id: '80351110224678912', username: 'bob', globalName: 'Bob' };
export const DISCORD_PRINCIPAL = 'discord:80351110224678912';

/** The deployment's Slack workspace (SLACK_TEAM_ID, or the bot token's team). */
export const SLACK_TEAM = 'T0ACME01';
/** The deployment's Discord server, with Bob as a member holding one role. */
export const DISCORD_GUILD = { id: '900000000000000001', name: 'Acme HQ' };
export const DISCORD_ROLE = '333333333333333333';
const SLACK_BOT_TOKEN = 'xoxb-0000000000-fake-bot-token';
const DISCORD_BOT_TOKEN = 'fake-discord-bot-token.for.tests';

const SLACK_CLIENT = { id: '2141029472.691202649728', secret: 'e1b9e11dfcd19c1982d5de12921e17e8c' };
const DISCORD_CLIENT = { id: '1234567890123456789', secret: 'discord-client-secret-for-tests' };

/** A web chat with WEB_AUTH=slack (or discord) and the fake it signs in with. */
export interface SignInBed<Fake> {
  bed: WebBed;
  provider: Fake;
  close(): Promise<void>;
}

/** The web chat behind Sign in with Slack, against the fake Slack OpenID provider. */
export async function startSlackSignInBed(
  env: Record<string, string> = {},
  options: {
    clientSecret?: string;
    redirectUri?: string;
    authorizeHost?: string;
    /** Check the workspace with a bot token (auth.test, users.info) instead of SLACK_TEAM_ID. */
    bot?: boolean;
    now?: () => number;
  } = {},
): Promise<SignInBed<FakeSlackOidc>> {
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const provider = await startFakeSlackOidc({
    clientId: SLACK_CLIENT.id,
    clientSecret: SLACK_CLIENT.secret,
    redirectUris: [options.redirectUri ?? `${publicUrl}/auth/callback`],
    user: SLACK_USER,
    ...(options.authorizeHost ? { authorizeHost: options.authorizeHost } : {}),
    ...(options.bot ? { bot: { token: SLACK_BOT_TOKEN, teamId: SLACK_TEAM, teamName: 'Acme' } } : {}),
  });
  const workspace: Record<string, string> = options.bot
    ? {
        SLACK_BOT_TOKEN,
        SLACK_SIGNING_SECRET: 'signing-secret-for-tests',
        SLACK_API_URL: `${provider.url}/api/`,
      }
    : { SLACK_TEAM_ID: SLACK_TEAM };
  const bed = await startWebBed(
    {
      WEB_AUTH: 'slack',
      WEB_PUBLIC_URL: publicUrl,
      SLACK_CLIENT_ID: SLACK_CLIENT.id,
      SLACK_CLIENT_SECRET: options.clientSecret ?? SLACK_CLIENT.secret,
      SLACK_OIDC_ISSUER: provider.url,
      ...workspace,
      ...env,
    },
    {},
    { port, ...(options.now ? { now: options.now } : {}) },
  );
  return {
    bed,
    provider,
    close: async () => {
      await bed.close();
      await provider.close();
    },
  };
}

/** The web chat behind Sign in with Discord, against the fake Discord OAuth2 server. */
export async function startDiscordSignInBed(
  env: Record<string, string> = {},
  options: {
    clientSecret?: string;
    /** Check membership with a bot token (the servers the bot is in) instead of the user's own token. */
    bot?: boolean;
    guilds?: FakeGuild[];
    now?: () => number;
  } = {},
): Promise<SignInBed<FakeDiscordOAuth>> {
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const provider = await startFakeDiscordOAuth({
    clientId: DISCORD_CLIENT.id,
    clientSecret: DISCORD_CLIENT.secret,
    redirectUris: [`${publicUrl}/auth/callback`],
    user: DISCORD_USER,
    botToken: DISCORD_BOT_TOKEN,
    guilds: options.guilds ?? [
      {
        ...DISCORD_GUILD,
        members: new Map([[DISCORD_USER.id, [DISCORD_ROLE]]]),
        botIsMember: true,
      },
    ],
  });
  const server: Record<string, string> = options.bot
    ? { DISCORD_TOKEN: DISCORD_BOT_TOKEN, DISCORD_API_URL: `${provider.url}/api` }
    : { DISCORD_GUILD_ID: DISCORD_GUILD.id };
  const bed = await startWebBed(
    {
      WEB_AUTH: 'discord',
      WEB_PUBLIC_URL: publicUrl,
      DISCORD_CLIENT_ID: DISCORD_CLIENT.id,
      DISCORD_CLIENT_SECRET: options.clientSecret ?? DISCORD_CLIENT.secret,
      DISCORD_OAUTH_URL: provider.url,
      ...server,
      ...env,
    },
    {},
    { port, ...(options.now ? { now: options.now } : {}) },
  );
  return {
    bed,
    provider,
    close: async () => {
      await bed.close();
      await provider.close();
    },
  };
}

/**
 * Signs `client` in as a browser would: `from` (`/auth/sign-in`), the provider's authorize page (which consents at
 * once), back to `/auth/callback`; resolves with where the callback sent it (the page, or the failure).
 */
export async function signInOverHttp(client: WebClient, from = '/auth/sign-in'): Promise<string | undefined> {
  const start = await client.visit(from);
  expect(start.status).toBe(302);
  const consent = await client.visit(start.location!);
  expect(consent.status).toBe(302);
  const back = await client.visit(consent.location!);
  expect(back.status).toBe(302);
  return back.location;
}
