import type { webApi } from '@slack/bolt';
import type { Asker } from '../../core/governance/asker.js';
import { slackPrincipal } from '../../core/governance/principal.js';
import type { SlackUser, UserDirectory } from './user-names.js';

/** A Slack asker and the one `users.info` lookup behind both their display name and their admin rights. */
export interface SlackAsker {
  asker: Asker;
  /** The lookup, started on first use and shared. */
  user(): Promise<SlackUser>;
}

/**
 * A Slack asker: thread replies count as their channel (a thread lives in one), DM channels start with `D`,
 * and admin rights come from `users.info`, looked up only when a rule needs them.
 */
export function slackAsker(
  users: UserDirectory,
  client: webApi.WebClient,
  userId: string,
  /** The asker's own team (`user_team` / `team` of the event), which a Slack Connect guest's differs in. */
  team: string | undefined,
  channel: string,
  channelType?: string,
): SlackAsker {
  const dm = channelType === 'im' || channel.startsWith('D');
  let lookup: Promise<SlackUser> | undefined;
  const user = () => {
    lookup ??= users(client, userId);
    return lookup;
  };
  return {
    user,
    asker: {
      platform: 'slack',
      userId,
      principal: slackPrincipal(userId, team),
      channelId: dm ? undefined : channel,
      dm,
      // A private channel or a group DM (channel_type `group` / `mpim`): what is said there stays there.
      privateChannel: channelType === 'group' || channelType === 'mpim',
      get platformAdmin() {
        return user().then((u) => u.admin);
      },
    },
  };
}
