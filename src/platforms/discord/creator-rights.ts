import { type Client, DiscordAPIError, PermissionFlagsBits, RESTJSONErrorCodes } from 'discord.js';
import type { Schedule } from '../../core/ports/schedule-store.js';
import type { CreatorRights } from '../../core/schedules/creator-rights.js';

/** The guild of a Discord conversation key (`discord:<guild|dm>:<channel>`); undefined in a DM. */
export function guildOfKey(key: string): string | undefined {
  const guild = key.split(':')[1];
  return guild && guild !== 'dm' ? guild : undefined;
}

/**
 * A schedule creator's rights in the schedule's server today: their member record fetched over REST with
 * the bot token (Get Guild Member, https://discord.com/developers/docs/resources/guild#get-guild-member),
 * so a role taken away or Manage Server lost counts at the next run. 10007 Unknown Member: they left.
 */
export async function discordCreatorRights(client: Client, schedule: Schedule): Promise<CreatorRights> {
  const guildId = guildOfKey(schedule.key);
  if (!guildId) return { platformAdmin: false, roles: [] };
  const guild = client.guilds.cache.get(guildId) ?? (await client.guilds.fetch(guildId));
  try {
    const member = await guild.members.fetch({ user: schedule.creator.userId, force: true });
    return {
      platformAdmin: member.permissions.has(PermissionFlagsBits.ManageGuild),
      roles: [...member.roles.cache.keys()],
    };
  } catch (err) {
    if (err instanceof DiscordAPIError && err.code === RESTJSONErrorCodes.UnknownMember) {
      return { platformAdmin: false, roles: [], member: false };
    }
    throw err;
  }
}
