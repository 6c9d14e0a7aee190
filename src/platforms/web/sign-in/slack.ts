import * as client from 'openid-client';
import { slackPrincipal } from '../../../core/governance/principal.js';
import { OutsideError } from './membership.js';
import { insecureAllowed, type SignInProvider } from './provider.js';
import type { SlackMembership } from './slack-membership.js';

/** Where Sign in with Slack is registered. */
export interface SlackSignInOptions {
  /** SLACK_OIDC_ISSUER: `https://slack.com` (discovery at `/.well-known/openid-configuration`). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** `WEB_PUBLIC_URL/auth/callback`, as listed among the Slack app's redirect URLs. */
  redirectUri: string;
  /** The deployment's workspace, and how people are re-checked. */
  membership: SlackMembership;
  /** Whether re-checks need the person's own token (no bot token): then it is kept with the session. */
  keepGrant: boolean;
}

/** The claim naming the Slack workspace (team) of the signed-in user. */
const TEAM_CLAIM = 'https://slack.com/team_id';
/** The claim naming the Enterprise Grid organization, when the workspace is in one. */
const ENTERPRISE_CLAIM = 'https://slack.com/enterprise_id';

/**
 * Sign in with Slack, which is OpenID Connect (`openid.connect.authorize` / `openid.connect.token`): the ID
 * token's `sub` is the Slack user and its team claim the workspace, so the person is `slack:T…:U…`, the
 * same principal as in the Slack chat. The ID token's signature is checked against Slack's keys too. Only
 * people of the deployment's workspace (or its Enterprise Grid organization) get in.
 */
export function createSlackSignIn(options: SlackSignInOptions): SignInProvider {
  let discovered: Promise<client.Configuration> | undefined;
  const configuration = () => {
    discovered ??= client
      .discovery(
        new URL(options.issuer),
        options.clientId,
        options.clientSecret,
        undefined,
        insecureAllowed(options.issuer) ? { execute: [client.allowInsecureRequests] } : undefined,
      )
      .then(
        (config) => {
          client.enableNonRepudiationChecks(config);
          return config;
        },
        (err: unknown) => {
          // Tried again at the next sign-in rather than failing until a restart.
          discovered = undefined;
          throw err;
        },
      );
    return discovered;
  };
  return {
    id: 'slack',
    label: 'Sign in with Slack',
    async begin() {
      const config = await configuration();
      const pending = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        verifier: client.randomPKCECodeVerifier(),
      };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: options.redirectUri,
        scope: 'openid profile',
        state: pending.state,
        nonce: pending.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
        code_challenge_method: 'S256',
      });
      return { url, pending };
    },
    async finish(callback, pending) {
      const config = await configuration();
      const tokens = await client.authorizationCodeGrant(config, callback, {
        expectedState: pending.state,
        ...(pending.nonce ? { expectedNonce: pending.nonce } : {}),
        pkceCodeVerifier: pending.verifier,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      const team = claims?.[TEAM_CLAIM];
      if (
        !claims ||
        typeof team !== 'string' ||
        !/^[TE][A-Z0-9]+$/.test(team) ||
        !/^[UW][A-Z0-9]+$/.test(claims.sub)
      ) {
        throw new Error('the Slack ID token names no Slack user and team');
      }
      const name = typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim() : claims.sub;
      const home = await options.membership.home();
      if (!home) throw new Error('Slack did not name the deployment’s workspace (auth.test)');
      const enterprise = claims[ENTERPRISE_CLAIM];
      if (!options.membership.admits(home, team, typeof enterprise === 'string' ? enterprise : undefined)) {
        throw new OutsideError(
          `This chat is for people of ${home.name}, and the account you signed in with belongs to another ` +
            'Slack workspace. Sign in with your account in that workspace.',
        );
      }
      return {
        user: { principal: slackPrincipal(claims.sub, team), userId: claims.sub, name },
        grant: options.keepGrant ? tokens.access_token : undefined,
      };
    },
    recheck: (user, grant) => options.membership.check(user.userId, grant),
  };
}
