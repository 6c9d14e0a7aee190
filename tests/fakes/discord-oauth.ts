import { createHash, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { type HttpFake, type SeenRequest, startHttpFake } from '../helpers/http-fake.js';

/**
 * What the fake does as Discord's OAuth2 does, with where each rule comes from (Discord's OAuth2 docs,
 * discord.com/developers/docs/topics/oauth2, and its metadata at /.well-known/oauth-authorization-server):
 * - Authorize (`/oauth2/authorize`): `client_id`, `redirect_uri` (one of the application's redirects, else
 *   Discord shows an error and does not redirect), `response_type=code`, `scope`, `state`, PKCE
 *   `code_challenge` with `code_challenge_method=S256` (the only method listed); after consent, a redirect
 *   with `code`, `state` and `iss` (`authorization_response_iss_parameter_supported: true`).
 * - Token (`/api/oauth2/token`): form-encoded, client authentication by `client_secret_basic` or
 *   `client_secret_post`; RFC 6749 errors as Discord sends them: `invalid_client` (401) for a wrong
 *   client or secret, `invalid_grant` (400) for an unknown, reused or expired code, a redirect URI that
 *   differs from authorize's, or a missing or wrong `code_verifier` when a challenge was sent.
 *   Success: `{ access_token, token_type: 'Bearer', expires_in: 604800, refresh_token, scope }`.
 * - `GET /api/users/@me` with `Authorization: Bearer …`: the user object (`id`, `username`,
 *   `global_name`, `discriminator: '0'`, `avatar`); without a valid token `401 {"message": "401: Unauthorized", "code": 0}`.
 * - `GET /api/users/@me/guilds/{guild}/member` with the user's token ("Get Current User Guild Member",
 *   discord.com/developers/docs/resources/user#get-current-user-guild-member): needs the
 *   `guilds.members.read` scope (OAuth2 scopes table), else `403 {"message": "Missing Access", "code": 50001}`;
 *   a guild the user is not in: `404 {"message": "Unknown Guild", "code": 10004}` (JSON error codes,
 *   topics/opcodes-and-status-codes#json); a member: the guild member object (`user`, `roles`, `joined_at`, …).
 * - The bot's own REST API under `/api/v10` with `Authorization: Bot <token>` (a wrong token: 401 as above):
 *   `GET /users/@me/guilds` (partial guilds, `limit` 1–200, `after`; resources/user#get-current-user-guilds),
 *   `GET /guilds/{guild}` (resources/guild#get-guild; a guild the bot is not in: 404 10004 Unknown Guild) and
 *   `GET /guilds/{guild}/members/{user}` (resources/guild#get-guild-member; not a member: 404 10007 Unknown Member).
 * - A revoked access token (the user deauthorized the app) answers 401 like an unknown one.
 */
export const DISCORD_OAUTH_RULES = {
  codeLifetimeMs: 10 * 60_000,
  accessTokenSeconds: 604_800,
  codeChallengeMethods: ['S256'],
} as const;

/** A Discord user who can consent at the fake's authorize page. */
export interface DiscordOAuthUser {
  id: string;
  username: string;
  globalName: string;
}

/** A Discord server the fake knows: its name, members (user id → role ids), and whether the bot is in it. */
export interface FakeGuild {
  id: string;
  name: string;
  members: Map<string, string[]>;
  botIsMember: boolean;
}

/** What {@link startFakeDiscordOAuth} is registered with, as a Discord application's OAuth2 settings. */
export interface FakeDiscordOAuthOptions {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  user: DiscordOAuthUser;
  /** The bot's token (DISCORD_TOKEN) for the `/api/v10` routes. */
  botToken?: string;
  guilds?: FakeGuild[];
}

/** The fake's state and controls. */
export interface FakeDiscordOAuth {
  /** `DISCORD_OAUTH_URL` */
  url: string;
  requests: SeenRequest[];
  /** Token requests refused, by error (and description). */
  refusals: string[];
  /** The servers, by id: change `members` to make people join or leave. */
  guilds: Map<string, FakeGuild>;
  signInAs(user: DiscordOAuthUser): void;
  /** Revokes every access token of `userId` (they deauthorized the app). */
  revokeTokens(userId: string): void;
  close(): Promise<void>;
}

interface Grant {
  user: DiscordOAuthUser;
  redirectUri: string;
  challenge: string | undefined;
  scope: string;
  issuedAt: number;
  used: boolean;
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** Starts a fake Discord OAuth2 server (authorize, token, users/@me) on a loopback port. */
export async function startFakeDiscordOAuth(options: FakeDiscordOAuthOptions): Promise<FakeDiscordOAuth> {
  const grants = new Map<string, Grant>();
  const tokens = new Map<string, { user: DiscordOAuthUser; scope: string }>();
  const guilds = new Map((options.guilds ?? []).map((g) => [g.id, g]));
  const refusals: string[] = [];
  let user = options.user;
  let base = '';

  const token = (req: SeenRequest, res: ServerResponse) => {
    const form = new URLSearchParams(req.body);
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const [basicId, basicSecret] = basic
      ? Buffer.from(basic, 'base64').toString('utf8').split(':').map(decodeURIComponent)
      : [];
    const invalidGrant = (description: string) => {
      refusals.push(`invalid_grant: ${description}`);
      json(res, 400, { error: 'invalid_grant', error_description: description });
    };
    if (
      (form.get('client_id') ?? basicId) !== options.clientId ||
      (form.get('client_secret') ?? basicSecret) !== options.clientSecret
    ) {
      refusals.push('invalid_client');
      return json(res, 401, { error: 'invalid_client' });
    }
    if (form.get('grant_type') !== 'authorization_code') {
      refusals.push('unsupported_grant_type');
      return json(res, 400, { error: 'unsupported_grant_type' });
    }
    const code = form.get('code') ?? '';
    const grant = grants.get(code);
    if (!grant || grant.used || Date.now() - grant.issuedAt > DISCORD_OAUTH_RULES.codeLifetimeMs) {
      return invalidGrant(`Invalid "code" in request.`);
    }
    grant.used = true;
    if (form.get('redirect_uri') !== grant.redirectUri)
      return invalidGrant('Invalid "redirect_uri" in request.');
    if (grant.challenge) {
      const verifier = form.get('code_verifier');
      if (!verifier) return invalidGrant('Missing "code_verifier" in request.');
      if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge) {
        return invalidGrant('Invalid "code_verifier" in request.');
      }
    }
    const accessToken = randomBytes(15).toString('base64url');
    tokens.set(accessToken, { user: grant.user, scope: grant.scope });
    return json(res, 200, {
      token_type: 'Bearer',
      access_token: accessToken,
      expires_in: DISCORD_OAUTH_RULES.accessTokenSeconds,
      refresh_token: randomBytes(15).toString('base64url'),
      scope: grant.scope,
    });
  };

  const fake: HttpFake = await startHttpFake((req, res) => {
    const path = req.url.pathname;
    if (req.method === 'GET' && path === '/oauth2/authorize') {
      const q = req.url.searchParams;
      const redirectUri = q.get('redirect_uri') ?? '';
      if (q.get('client_id') !== options.clientId || !options.redirectUris.includes(redirectUri)) {
        res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><title>Discord</title><p>Invalid OAuth2 redirect_uri</p>');
        return;
      }
      const back = new URL(redirectUri);
      const method = q.get('code_challenge_method');
      if (q.get('response_type') !== 'code') back.searchParams.set('error', 'unsupported_response_type');
      else if (
        q.get('code_challenge') &&
        !DISCORD_OAUTH_RULES.codeChallengeMethods.includes(method as never)
      ) {
        back.searchParams.set('error', 'invalid_request');
      } else {
        const code = randomBytes(15).toString('base64url');
        grants.set(code, {
          user,
          redirectUri,
          challenge: q.get('code_challenge') ?? undefined,
          scope: q.get('scope') ?? '',
          issuedAt: Date.now(),
          used: false,
        });
        back.searchParams.set('code', code);
      }
      const state = q.get('state');
      if (state !== null) back.searchParams.set('state', state);
      back.searchParams.set('iss', base);
      res.writeHead(302, { location: back.toString() });
      res.end();
      return;
    }
    if (req.method === 'POST' && path === '/api/oauth2/token') return token(req, res);
    const unauthorized = () => json(res, 401, { message: '401: Unauthorized', code: 0 });
    const unknownGuild = () => json(res, 404, { message: 'Unknown Guild', code: 10004 });
    const memberOf = (guild: FakeGuild, userId: string) => ({
      user: { id: userId, username: userId, discriminator: '0', global_name: null, avatar: null },
      nick: null,
      roles: guild.members.get(userId) ?? [],
      joined_at: '2026-01-01T00:00:00.000Z',
      deaf: false,
      mute: false,
      flags: 0,
    });
    const ownMember = /^\/api\/users\/@me\/guilds\/(\d+)\/member$/.exec(path);
    if (req.method === 'GET' && ownMember) {
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const held = bearer ? tokens.get(bearer) : undefined;
      if (!held) return unauthorized();
      if (!held.scope.split(' ').includes('guilds.members.read'))
        return json(res, 403, { message: 'Missing Access', code: 50001 });
      const guild = guilds.get(ownMember[1]!);
      if (!guild?.members.has(held.user.id)) return unknownGuild();
      return memberOf(guild, held.user.id);
    }
    if (req.method === 'GET' && path.startsWith('/api/v10/')) {
      if (!options.botToken || req.headers.authorization !== `Bot ${options.botToken}`) return unauthorized();
      const rest = path.slice('/api/v10'.length);
      if (rest === '/users/@me/guilds') {
        const limit = Number(req.url.searchParams.get('limit') ?? 200);
        if (!Number.isInteger(limit) || limit < 1 || limit > 200)
          return json(res, 400, { message: 'Invalid Form Body', code: 50035 });
        const after = BigInt(req.url.searchParams.get('after') ?? '0');
        return [...guilds.values()]
          .filter((g) => g.botIsMember && BigInt(g.id) > after)
          .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1))
          .slice(0, limit)
          .map((g) => ({ id: g.id, name: g.name, icon: null, owner: false, permissions: '0', features: [] }));
      }
      const guildRoute = /^\/guilds\/(\d+)(?:\/members\/(\d+))?$/.exec(rest);
      const guild = guildRoute ? guilds.get(guildRoute[1]!) : undefined;
      if (guildRoute && (!guild || !guild.botIsMember)) return unknownGuild();
      if (guild && guildRoute?.[2]) {
        if (!guild.members.has(guildRoute[2]))
          return json(res, 404, { message: 'Unknown Member', code: 10007 });
        return memberOf(guild, guildRoute[2]);
      }
      if (guild)
        return { id: guild.id, name: guild.name, icon: null, owner_id: '0', roles: [], features: [] };
    }
    if (req.method === 'GET' && path === '/api/users/@me') {
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const who = bearer ? tokens.get(bearer)?.user : undefined;
      if (!who) return json(res, 401, { message: '401: Unauthorized', code: 0 });
      return {
        id: who.id,
        username: who.username,
        global_name: who.globalName,
        discriminator: '0',
        avatar: null,
      };
    }
    json(res, 404, { message: '404: Not Found', code: 0 });
  });
  base = fake.url;
  return {
    url: fake.url,
    requests: fake.requests,
    refusals,
    guilds,
    signInAs: (next) => {
      user = next;
    },
    revokeTokens: (userId) => {
      for (const [token, held] of tokens) if (held.user.id === userId) tokens.delete(token);
    },
    close: () => fake.close(),
  };
}
