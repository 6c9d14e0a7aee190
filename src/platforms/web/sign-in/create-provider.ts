import type { Config } from '../../../config.js';
import { createDiscordSignIn } from './discord.js';
import type { SignInProvider } from './provider.js';
import { callbackUrl } from './routes.js';
import { createSlackSignIn } from './slack.js';

/** The sign-in WEB_AUTH names (start-up has checked its settings), or undefined for `token` and `none`. */
export function createSignInProvider(config: Config): SignInProvider | undefined {
  const publicUrl = config.WEB_PUBLIC_URL;
  if (!publicUrl) return undefined;
  const redirectUri = callbackUrl(publicUrl).toString();
  const client = (clientId: string | undefined, clientSecret: string | undefined) =>
    clientId && clientSecret ? { clientId, clientSecret, redirectUri } : undefined;
  const slack = config.WEB_AUTH === 'slack' && client(config.SLACK_CLIENT_ID, config.SLACK_CLIENT_SECRET);
  if (slack) return createSlackSignIn({ issuer: config.SLACK_OIDC_ISSUER, ...slack });
  const discord =
    config.WEB_AUTH === 'discord' && client(config.DISCORD_CLIENT_ID, config.DISCORD_CLIENT_SECRET);
  if (discord) return createDiscordSignIn({ baseUrl: config.DISCORD_OAUTH_URL, ...discord });
  return undefined;
}
