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

/** What {@link startFakeDiscordOAuth} is registered with, as a Discord application's OAuth2 settings. */
export interface FakeDiscordOAuthOptions {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  user: DiscordOAuthUser;
}

/** The fake's state and controls. */
export interface FakeDiscordOAuth {
  /** `DISCORD_OAUTH_URL` */
  url: string;
  requests: SeenRequest[];
  /** Token requests refused, by error (and description). */
  refusals: string[];
  signInAs(user: DiscordOAuthUser): void;
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
  const tokens = new Map<string, DiscordOAuthUser>();
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
    tokens.set(accessToken, grant.user);
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
    if (req.method === 'GET' && path === '/api/users/@me') {
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const who = bearer ? tokens.get(bearer) : undefined;
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
    signInAs: (next) => {
      user = next;
    },
    close: () => fake.close(),
  };
}
