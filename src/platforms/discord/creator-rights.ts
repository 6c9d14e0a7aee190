import { type Client, DiscordAPIError, PermissionFlagsBits, RESTJSONErrorCodes } from 'discord.js';
import type { PlatformRights, SystemRunFor } from '../../core/ports/system-run-delivery.js';

/** The guild of a Discord conversation key (`discord:<guild|dm>:<channel>`); undefined in a DM. */
export function guildOfKey(key: string): string | undefined {
  const guild = key.split(':')[1];
  return guild && guild !== 'dm' ? guild : undefined;
}

/**
 * The rights today of the person a run is for, in the run's server: their member record fetched over REST with
 * the bot token (Get Guild Member, https://discord.com/developers/docs/resources/guild#get-guild-member),
 * so a role taken away or Manage Server lost counts at the next run. 10007 Unknown Member: they left.
 */
export async function discordCreatorRights(client: Client, whom: SystemRunFor): Promise<PlatformRights> {
  const guildId = guildOfKey(whom.key);
  if (!guildId) return { platformAdmin: false, roles: [] };
  const guild = client.guilds.cache.get(guildId) ?? (await client.guilds.fetch(guildId));
  try {
    const member = await guild.members.fetch({ user: whom.asker.userId, force: true });
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
