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
  if (config.WEB_AUTH === 'slack' && config.SLACK_CLIENT_ID && config.SLACK_CLIENT_SECRET) {
    return createSlackSignIn({
      issuer: config.SLACK_OIDC_ISSUER,
      clientId: config.SLACK_CLIENT_ID,
      clientSecret: config.SLACK_CLIENT_SECRET,
      redirectUri,
    });
  }
  if (config.WEB_AUTH === 'discord' && config.DISCORD_CLIENT_ID && config.DISCORD_CLIENT_SECRET) {
    return createDiscordSignIn({
      baseUrl: config.DISCORD_OAUTH_URL,
      clientId: config.DISCORD_CLIENT_ID,
      clientSecret: config.DISCORD_CLIENT_SECRET,
      redirectUri,
    });
  }
  return undefined;
}
