import { type ChatInputCommandInteraction, GuildMember, type Message, PermissionFlagsBits } from 'discord.js';
import type { Asker } from '../../core/governance/asker.js';
import { discordPrincipal } from '../../core/governance/principal.js';

/** The channel the access lists see: a thread's parent, or the channel itself. */
function listedChannel(
  channel: { id: string; isThread(): boolean; parentId?: string | null } | null,
  id: string,
) {
  return channel?.isThread() ? (channel.parentId ?? id) : id;
}

/** What a message and a slash command both tell of who sent them and where. */
interface Source {
  userId: string;
  guild: boolean;
  channel: { id: string; isThread(): boolean; parentId?: string | null; type?: number } | null;
  channelId: string;
  roles: string[];
  manageGuild: boolean | undefined;
}

/** Channel types (https://discord.com/developers/docs/resources/channel#channel-object-channel-types). */
const GROUP_DM = 3;
const PRIVATE_THREAD = 12;

function askerOf(source: Source): Asker {
  return {
    platform: 'discord',
    userId: source.userId,
    principal: discordPrincipal(source.userId),
    channelId: source.guild ? listedChannel(source.channel, source.channelId) : undefined,
    dm: !source.guild,
    // A private thread (type 12) or a group DM (type 3): what is said there stays there.
    privateChannel: source.channel?.type === PRIVATE_THREAD || source.channel?.type === GROUP_DM,
    roles: source.roles,
    platformAdmin: source.manageGuild ?? false,
  };
}

/** The asker of a message: roles and Manage Server from the member, a thread counted as its parent. */
export function messageAsker(message: Message): Asker {
  const member = message.member;
  return askerOf({
    userId: message.author.id,
    guild: message.inGuild(),
    channel: message.channel,
    channelId: message.channelId,
    roles: member ? [...member.roles.cache.keys()] : [],
    manageGuild: member?.permissions.has(PermissionFlagsBits.ManageGuild),
  });
}

/** The asker of a slash command. */
export function interactionAsker(interaction: ChatInputCommandInteraction): Asker {
  const member = interaction.member;
  const roles = member instanceof GuildMember ? [...member.roles.cache.keys()] : (member?.roles ?? []);
  return askerOf({
    userId: interaction.user.id,
    guild: interaction.inGuild(),
    channel: interaction.channel,
    channelId: interaction.channelId,
    roles: Array.isArray(roles) ? roles : [],
    manageGuild: interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild),
  });
}
