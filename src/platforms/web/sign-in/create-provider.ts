import type { Config } from '../../../config.js';
import { createDiscordSignIn } from './discord.js';
import { createDiscordMembership } from './discord-membership.js';
import type { SignInProvider } from './provider.js';
import { callbackUrl } from './routes.js';
import { createSlackSignIn } from './slack.js';
import { createSlackMembership } from './slack-membership.js';

/** The sign-in WEB_AUTH names (start-up has checked its settings), or undefined for `token` and `none`. */
export function createSignInProvider(config: Config): SignInProvider | undefined {
  const publicUrl = config.WEB_PUBLIC_URL;
  if (!publicUrl) return undefined;
  const redirectUri = callbackUrl(publicUrl).toString();
  const client = (clientId: string | undefined, clientSecret: string | undefined) =>
    clientId && clientSecret ? { clientId, clientSecret, redirectUri } : undefined;
  const slack = config.WEB_AUTH === 'slack' && client(config.SLACK_CLIENT_ID, config.SLACK_CLIENT_SECRET);
  if (slack) {
    const issuer = config.SLACK_OIDC_ISSUER.replace(/\/+$/, '');
    const membership = createSlackMembership({
      apiUrl: config.SLACK_API_URL,
      botToken: config.SLACK_BOT_TOKEN,
      teamId: config.SLACK_TEAM_ID,
      userInfoUrl: `${issuer}/api/openid.connect.userInfo`,
    });
    return createSlackSignIn({
      issuer: config.SLACK_OIDC_ISSUER,
      ...slack,
      membership,
      keepGrant: !config.SLACK_BOT_TOKEN,
    });
  }
  const discord =
    config.WEB_AUTH === 'discord' && client(config.DISCORD_CLIENT_ID, config.DISCORD_CLIENT_SECRET);
  if (discord) {
    const membership = createDiscordMembership({
      oauthBase: config.DISCORD_OAUTH_URL,
      apiUrl: config.DISCORD_API_URL,
      botToken: config.DISCORD_TOKEN,
      guildId: config.DISCORD_GUILD_ID,
    });
    return createDiscordSignIn({
      baseUrl: config.DISCORD_OAUTH_URL,
      ...discord,
      membership,
      keepGrant: !config.DISCORD_TOKEN,
    });
  }
  return undefined;
}
