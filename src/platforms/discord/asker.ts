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

/** The asker of a message: roles and Manage Server from the member, a thread counted as its parent. */
export function messageAsker(message: Message): Asker {
  const member = message.member;
  return {
    platform: 'discord',
    userId: message.author.id,
    principal: discordPrincipal(message.author.id),
    channelId: message.inGuild() ? listedChannel(message.channel, message.channelId) : undefined,
    dm: !message.inGuild(),
    roles: member ? [...member.roles.cache.keys()] : [],
    platformAdmin: member?.permissions.has(PermissionFlagsBits.ManageGuild) ?? false,
  };
}

/** The asker of a slash command. */
export function interactionAsker(interaction: ChatInputCommandInteraction): Asker {
  const member = interaction.member;
  const roles = member instanceof GuildMember ? [...member.roles.cache.keys()] : (member?.roles ?? []);
  return {
    platform: 'discord',
    userId: interaction.user.id,
    principal: discordPrincipal(interaction.user.id),
    channelId: interaction.inGuild() ? listedChannel(interaction.channel, interaction.channelId) : undefined,
    dm: !interaction.inGuild(),
    roles: Array.isArray(roles) ? roles : [],
    platformAdmin: interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false,
  };
}
