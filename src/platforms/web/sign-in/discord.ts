import * as client from 'openid-client';
import { discordPrincipal } from '../../../core/governance/principal.js';
import { insecureAllowed, type SignInProvider } from './provider.js';

/** Where Sign in with Discord is registered. */
export interface DiscordSignInOptions {
  /** DISCORD_OAUTH_URL: `https://discord.com` (`/oauth2/authorize`, `/api/oauth2/token`, `/api/users/@me`). */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** `WEB_PUBLIC_URL/auth/callback`, as listed among the Discord application's OAuth2 redirects. */
  redirectUri: string;
}

/** The part of Discord's user object read here. */
interface DiscordUser {
  id?: unknown;
  username?: unknown;
  global_name?: unknown;
}

/**
 * Sign in with Discord: OAuth2's code flow with PKCE and the `identify` scope (Discord is not an OpenID
 * provider), then `GET /api/users/@me` with the access token; the person is `discord:<id>`, the same
 * principal as in the Discord chat. The access token is used once and dropped.
 */
export function createDiscordSignIn(options: DiscordSignInOptions): SignInProvider {
  const base = options.baseUrl.replace(/\/+$/, '');
  const config = new client.Configuration(
    {
      issuer: base,
      authorization_endpoint: `${base}/oauth2/authorize`,
      token_endpoint: `${base}/api/oauth2/token`,
    },
    options.clientId,
    options.clientSecret,
  );
  if (insecureAllowed(base)) client.allowInsecureRequests(config);
  return {
    id: 'discord',
    label: 'Sign in with Discord',
    async begin() {
      const pending = { state: client.randomState(), verifier: client.randomPKCECodeVerifier() };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: options.redirectUri,
        scope: 'identify',
        state: pending.state,
        code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
        code_challenge_method: 'S256',
      });
      return { url, pending };
    },
    async finish(callback, pending) {
      const tokens = await client.authorizationCodeGrant(config, callback, {
        expectedState: pending.state,
        pkceCodeVerifier: pending.verifier,
      });
      const res = await client.fetchProtectedResource(
        config,
        tokens.access_token,
        new URL(`${base}/api/users/@me`),
        'GET',
      );
      if (!res.ok) throw new Error(`Discord answered /users/@me with ${res.status}`);
      const user = (await res.json()) as DiscordUser;
      if (typeof user.id !== 'string' || !/^\d{1,25}$/.test(user.id)) {
        throw new Error('Discord named no user');
      }
      const shown = [user.global_name, user.username].find((n) => typeof n === 'string' && n.trim());
      return { principal: discordPrincipal(user.id), userId: user.id, name: String(shown ?? user.id) };
    },
  };
}
