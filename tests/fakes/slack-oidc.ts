import { createHash, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { type HttpFake, type SeenRequest, startHttpFake } from '../helpers/http-fake.js';

/**
 * What the fake does as Sign in with Slack does, with where each rule comes from:
 * - Discovery (`/.well-known/openid-configuration`): the document Slack serves at
 *   https://slack.com/.well-known/openid-configuration (endpoints, `RS256`, `client_secret_post`/`basic`).
 * - Authorize (`/openid/connect/authorize`): "Sign in with Slack" (docs.slack.dev/authentication/sign-in-with-slack):
 *   after consent Slack redirects to `redirect_uri` with `code` and `state`; an unknown client or a
 *   redirect URI not among the app's redirect URLs gets Slack's error page, never a redirect.
 * - Token (`/api/openid.connect.token`, the openid.connect.token method reference): form-encoded
 *   `client_id`, `client_secret`, `code`, `redirect_uri`, `grant_type`; like every Web API method it answers
 *   HTTP 200 with `{ ok: false, error }` on failure and `{ ok: true, access_token, token_type, id_token }`
 *   on success; `redirect_uri` must match the one sent to authorize ("a potential gotcha"). The error
 *   names (`invalid_client_id`, `bad_client_secret`, `invalid_code`, `bad_redirect_uri`,
 *   `invalid_grant_type`) are those of oauth.v2.access, which this method mirrors; an OAuth code works
 *   once and for ten minutes (Slack's OAuth docs).
 * - ID token: RS256 with `iss`, `sub` (the user ID), `aud` (the client ID), `exp`, `iat`, `auth_time`,
 *   `nonce`, `https://slack.com/user_id`, `https://slack.com/team_id`, `name` (with the `profile` scope)
 *   ("Sign in with Slack", "Response" example of openid.connect.token); keys at `/openid/connect/keys`.
 * - `openid.connect.userInfo` (its method reference): the user's access token as a bearer; `{ ok: true, sub,
 *   https://slack.com/user_id, https://slack.com/team_id, https://slack.com/enterprise_id (Grid only), name }`,
 *   or `{ ok: false, error }` with `invalid_auth` for an unknown token and `token_revoked` for a revoked one.
 * - The bot's Web API on the same host (`/api/…`, as slack.com/api): `auth.test` (`team_id`, `team`,
 *   `enterprise_id` in Grid) and `users.info` (`user.team_id`, `user.deleted`; `user_not_found` for
 *   someone unknown), with `invalid_auth` for a wrong bot token.
 * - PKCE: Slack's discovery lists no `code_challenge_methods_supported`; when a challenge is sent anyway,
 *   the fake checks the verifier as RFC 7636 requires of a server that takes it.
 */
export const SLACK_OIDC_RULES = {
  codeLifetimeMs: 10 * 60_000,
  idTokenLifetimeSeconds: 3600,
  scopes: ['openid', 'profile', 'email'],
} as const;

/** A Slack user who can consent at the fake's authorize page. */
export interface SlackOidcUser {
  userId: string;
  teamId: string;
  name: string;
  /** The Enterprise Grid organization of the user's workspace. */
  enterpriseId?: string;
  /** Deactivated (users.info says `deleted: true`). */
  deleted?: boolean;
}

/** What {@link startFakeSlackOidc} is registered with, as a Slack app's OAuth settings. */
export interface FakeSlackOidcOptions {
  clientId: string;
  clientSecret: string;
  /** The app's redirect URLs. */
  redirectUris: string[];
  /** Who consents at the authorize page (changeable with `signInAs`). */
  user: SlackOidcUser;
  /**
   * The host name the authorize endpoint is advertised under (default 127.0.0.1): `localhost` makes the
   * browser's way back to a chat on 127.0.0.1 cross-site, as it is from slack.com.
   */
  authorizeHost?: string;
  /** The bot token (SLACK_BOT_TOKEN) its Web API takes, and the workspace it belongs to. */
  bot?: { token: string; teamId: string; teamName: string; enterpriseId?: string };
}

/** The fake's state and controls. */
export interface FakeSlackOidc {
  /** The issuer: `SLACK_OIDC_ISSUER`. */
  url: string;
  requests: SeenRequest[];
  /** Codes the token endpoint refused, with Slack's error name. */
  refusals: string[];
  /** Who the next consent signs in as. */
  signInAs(user: SlackOidcUser): void;
  /** The users `users.info` knows, by ID: change them to deactivate someone. */
  users: Map<string, SlackOidcUser>;
  /** Revokes every access token of `userId`. */
  revokeTokens(userId: string): void;
  close(): Promise<void>;
}

interface Grant {
  user: SlackOidcUser;
  redirectUri: string;
  nonce: string | undefined;
  challenge: string | undefined;
  scope: string[];
  issuedAt: number;
  used: boolean;
}

const html = (res: ServerResponse, status: number, text: string) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><title>Slack</title><p>${text}</p>`);
};

/** Starts a fake Slack OpenID Connect provider on a loopback port. */
export async function startFakeSlackOidc(options: FakeSlackOidcOptions): Promise<FakeSlackOidc> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const kid = randomBytes(8).toString('hex');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const grants = new Map<string, Grant>();
  const refusals: string[] = [];
  let user = options.user;
  const users = new Map<string, SlackOidcUser>([[user.userId, user]]);
  const accessTokens = new Map<string, { userId: string; revoked: boolean }>();
  let issuer = '';

  const token = async (req: SeenRequest) => {
    const form = new URLSearchParams(req.body);
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const [basicId, basicSecret] = basic
      ? Buffer.from(basic, 'base64').toString('utf8').split(':').map(decodeURIComponent)
      : [];
    const clientId = form.get('client_id') ?? basicId;
    const secret = form.get('client_secret') ?? basicSecret;
    const refuse = (error: string) => {
      refusals.push(error);
      return { ok: false, error };
    };
    if (clientId !== options.clientId) return refuse('invalid_client_id');
    if (secret !== options.clientSecret) return refuse('bad_client_secret');
    if (form.get('grant_type') !== 'authorization_code') return refuse('invalid_grant_type');
    const grant = grants.get(form.get('code') ?? '');
    if (!grant || grant.used || Date.now() - grant.issuedAt > SLACK_OIDC_RULES.codeLifetimeMs) {
      return refuse('invalid_code');
    }
    grant.used = true;
    if (form.get('redirect_uri') !== grant.redirectUri) return refuse('bad_redirect_uri');
    if (grant.challenge) {
      const verifier = form.get('code_verifier') ?? '';
      if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge) {
        return refuse('invalid_code_verifier');
      }
    }
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      sub: grant.user.userId,
      'https://slack.com/user_id': grant.user.userId,
      'https://slack.com/team_id': grant.user.teamId,
      ...(grant.user.enterpriseId ? { 'https://slack.com/enterprise_id': grant.user.enterpriseId } : {}),
      auth_time: now,
      ...(grant.nonce ? { nonce: grant.nonce } : {}),
      ...(grant.scope.includes('profile') ? { name: grant.user.name, locale: 'en-US' } : {}),
    };
    const idToken = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
      .setIssuer(issuer)
      .setAudience(options.clientId)
      .setIssuedAt(now)
      .setExpirationTime(now + SLACK_OIDC_RULES.idTokenLifetimeSeconds)
      .sign(privateKey);
    const accessToken = `xoxp-${randomBytes(12).toString('hex')}`;
    accessTokens.set(accessToken, { userId: grant.user.userId, revoked: false });
    return {
      ok: true,
      access_token: accessToken,
      token_type: 'Bearer',
      id_token: idToken,
    };
  };

  const fake: HttpFake = await startHttpFake(async (req, res) => {
    const path = req.url.pathname;
    if (req.method === 'GET' && path === '/.well-known/openid-configuration') {
      return {
        issuer,
        authorization_endpoint: `${authorizeBase}/openid/connect/authorize`,
        token_endpoint: `${issuer}/api/openid.connect.token`,
        userinfo_endpoint: `${issuer}/api/openid.connect.userInfo`,
        jwks_uri: `${issuer}/openid/connect/keys`,
        scopes_supported: SLACK_OIDC_RULES.scopes,
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        grant_types_supported: ['authorization_code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        claims_supported: ['sub', 'auth_time', 'iss'],
        claims_parameter_supported: false,
        request_parameter_supported: false,
        request_uri_parameter_supported: true,
        token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
      };
    }
    if (req.method === 'GET' && path === '/openid/connect/keys') return { keys: [jwk] };
    if (req.method === 'GET' && path === '/openid/connect/authorize') {
      const q = req.url.searchParams;
      if (q.get('client_id') !== options.clientId) return html(res, 400, 'Invalid client_id parameter');
      const redirectUri = q.get('redirect_uri') ?? '';
      if (!options.redirectUris.includes(redirectUri))
        return html(res, 400, 'redirect_uri did not match any configured URIs.');
      const scope = (q.get('scope') ?? '').split(' ').filter(Boolean);
      const back = new URL(redirectUri);
      if (
        q.get('response_type') !== 'code' ||
        !scope.includes('openid') ||
        scope.some((s) => !SLACK_OIDC_RULES.scopes.includes(s as never))
      ) {
        back.searchParams.set('error', 'invalid_scope');
      } else {
        const code = `${randomBytes(4).toString('hex')}.${randomBytes(24).toString('hex')}`;
        grants.set(code, {
          user,
          redirectUri,
          nonce: q.get('nonce') ?? undefined,
          challenge: q.get('code_challenge') ?? undefined,
          scope,
          issuedAt: Date.now(),
          used: false,
        });
        back.searchParams.set('code', code);
      }
      const state = q.get('state');
      if (state !== null) back.searchParams.set('state', state);
      res.writeHead(302, { location: back.toString() });
      res.end();
      return;
    }
    if (req.method === 'POST' && path === '/api/openid.connect.token') return token(req);
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (path === '/api/openid.connect.userInfo') {
      const held = accessTokens.get(bearer);
      if (!held) return { ok: false, error: 'invalid_auth' };
      if (held.revoked) return { ok: false, error: 'token_revoked' };
      const who = users.get(held.userId)!;
      if (who.deleted) return { ok: false, error: 'account_inactive' };
      return {
        ok: true,
        sub: who.userId,
        'https://slack.com/user_id': who.userId,
        'https://slack.com/team_id': who.teamId,
        ...(who.enterpriseId ? { 'https://slack.com/enterprise_id': who.enterpriseId } : {}),
        name: who.name,
      };
    }
    if (path === '/api/auth.test' || path === '/api/users.info') {
      const { bot } = options;
      if (!bot || bearer !== bot.token) return { ok: false, error: 'invalid_auth' };
      if (path === '/api/auth.test') {
        return {
          ok: true,
          url: `https://${bot.teamName.toLowerCase()}.slack.com/`,
          team: bot.teamName,
          user: 'thinkthread',
          team_id: bot.teamId,
          user_id: 'UBOT',
          bot_id: 'BBOT',
          is_enterprise_install: false,
          ...(bot.enterpriseId ? { enterprise_id: bot.enterpriseId } : {}),
        };
      }
      const who = users.get(req.url.searchParams.get('user') ?? '');
      if (!who) return { ok: false, error: 'user_not_found' };
      return {
        ok: true,
        user: {
          id: who.userId,
          team_id: who.teamId,
          name: who.name,
          deleted: who.deleted === true,
          ...(who.enterpriseId ? { enterprise_user: { enterprise_id: who.enterpriseId } } : {}),
        },
      };
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: false, error: 'unknown_method' }));
  });
  issuer = fake.url;
  const authorizeBase = options.authorizeHost
    ? `http://${options.authorizeHost}:${new URL(fake.url).port}`
    : issuer;
  return {
    url: fake.url,
    requests: fake.requests,
    refusals,
    signInAs: (next) => {
      user = next;
      users.set(next.userId, next);
    },
    users,
    revokeTokens: (userId) => {
      for (const held of accessTokens.values()) if (held.userId === userId) held.revoked = true;
    },
    close: () => fake.close(),
  };
}
