import type { webApi } from '@slack/bolt';
import type { Asker } from '../../core/governance/asker.js';
import type { UserDirectory } from './user-names.js';

/**
 * A Slack asker: thread replies count as their channel (a thread lives in one), DM channels start with `D`,
 * and admin rights come from `users.info` (looked up only when a rule needs them).
 */
export function slackAsker(
  users: UserDirectory,
  client: webApi.WebClient,
  userId: string,
  channel: string,
  channelType?: string,
): Asker {
  const dm = channelType === 'im' || channel.startsWith('D');
  let admin: Promise<boolean> | undefined;
  return {
    platform: 'slack',
    userId,
    channelId: dm ? undefined : channel,
    dm,
    get platformAdmin() {
      admin ??= users(client, userId).then((user) => user.admin);
      return admin;
    },
  };
}
