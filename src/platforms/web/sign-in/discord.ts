import * as client from 'openid-client';
import { discordPrincipal } from '../../../core/governance/principal.js';
import type { DiscordMembership } from './discord-membership.js';
import { OutsideError } from './membership.js';
import { insecureAllowed, type SignInProvider } from './provider.js';

/** Where Sign in with Discord is registered. */
export interface DiscordSignInOptions {
  /** DISCORD_OAUTH_URL: `https://discord.com` (`/oauth2/authorize`, `/api/oauth2/token`, `/api/users/@me`). */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** `WEB_PUBLIC_URL/auth/callback`, as listed among the Discord application's OAuth2 redirects. */
  redirectUri: string;
  /** Who counts as a member of the deployment's servers. */
  membership: DiscordMembership;
  /** Whether re-checks need the person's own token (no bot token): then it is kept with the session. */
  keepGrant: boolean;
}

/** The part of Discord's user object read here. */
interface DiscordUser {
  id?: unknown;
  username?: unknown;
  global_name?: unknown;
}

/** The scopes asked for: who the person is, and their membership of a server (without needing the bot's token). */
export const DISCORD_SCOPES = 'identify guilds.members.read';

/**
 * Sign in with Discord: OAuth2's code flow with PKCE and the `identify` and `guilds.members.read` scopes
 * (Discord is not an OpenID provider), then `GET /api/users/@me` with the access token; the person is
 * `discord:<id>`, the same principal as in the Discord chat, admitted only as a member of the deployment's
 * servers (with their roles there). The access token is kept (sealed) only when re-checks need it: when
 * there is no bot token.
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
        scope: DISCORD_SCOPES,
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
      const member = await options.membership.check(user.id, tokens.access_token);
      if (member.status === 'outside') {
        throw new OutsideError(
          `This chat is for members of ${await options.membership.describe()} on Discord, and the account ` +
            `you signed in with is not one. Ask someone there for an invitation, or sign in with another account.`,
        );
      }
      if (member.status === 'unknown') throw new Error(`could not check Discord membership: ${member.why}`);
      return {
        user: {
          principal: discordPrincipal(user.id),
          userId: user.id,
          name: String(shown ?? user.id),
          roles: member.roles,
        },
        grant: options.keepGrant ? tokens.access_token : undefined,
      };
    },
    recheck: (user, grant) => options.membership.check(user.userId, grant),
  };
}
