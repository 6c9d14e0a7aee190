import { isLoopback } from '../platforms/web/loopback.js';
import { type Config, MIN_WEB_TOKEN_CHARS } from './schema.js';

/** What the web chat's sign-in lacks, as start-up problems. */
export function webAuthProblems(config: Config): string[] {
  const problems: string[] = [];
  const needs = (keys: (keyof Config)[], why: string) => {
    for (const key of keys) if (!config[key]) problems.push(`${key}: required ${why}.`);
  };
  switch (config.WEB_AUTH) {
    case 'none':
      if (!isLoopback(config.WEB_HOST)) {
        problems.push(
          `WEB_AUTH: the web chat would be open to anyone on WEB_HOST=${config.WEB_HOST}; set WEB_AUTH=slack or ` +
            `discord (sign-in) or a WEB_CHAT_TOKEN of at least ${MIN_WEB_TOKEN_CHARS} random characters, or keep ` +
            'WEB_HOST=127.0.0.1.',
        );
      }
      break;
    case 'token':
      if (!config.WEB_CHAT_TOKEN) needs(['WEB_CHAT_TOKEN'], 'with WEB_AUTH=token');
      else if (config.WEB_CHAT_TOKEN.length < MIN_WEB_TOKEN_CHARS) {
        problems.push(
          `WEB_CHAT_TOKEN: must be at least ${MIN_WEB_TOKEN_CHARS} characters (a long random value, e.g. ` +
            '`openssl rand -base64 24`).',
        );
      }
      break;
    case 'slack':
      needs(
        ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'WEB_PUBLIC_URL'],
        'for WEB_AUTH=slack (Sign in with Slack)',
      );
      if (!config.SLACK_TEAM_ID && !config.SLACK_BOT_TOKEN) {
        problems.push(
          'SLACK_TEAM_ID: required for WEB_AUTH=slack without SLACK_BOT_TOKEN: sign-in admits only that workspace (T…) or Enterprise Grid org (E…).',
        );
      }
      break;
    case 'discord':
      needs(
        ['DISCORD_CLIENT_ID', 'DISCORD_CLIENT_SECRET', 'WEB_PUBLIC_URL'],
        'for WEB_AUTH=discord (Sign in with Discord)',
      );
      if (!config.DISCORD_GUILD_ID && !config.DISCORD_TOKEN) {
        problems.push(
          'DISCORD_GUILD_ID: required for WEB_AUTH=discord without DISCORD_TOKEN: sign-in admits only members of that server.',
        );
      }
      break;
  }
  return problems;
}
