import { GuildMember, type User } from 'discord.js';

/** The memory key of a Discord conversation: `discord:<guild id or 'dm'>:<channel id>` (a thread is a channel). */
export function conversationKey(guildId: string | null, channelId: string): string {
  return `discord:${guildId ?? 'dm'}:${channelId}`;
}

/**
 * The key whose settings apply: a thread's or forum post's parent channel (they inherit its settings),
 * else the conversation itself.
 */
export function settingsKeyOf(
  guildId: string | null,
  channelId: string,
  channel: { isThread(): boolean; parentId?: string | null } | null,
): string {
  const parent = channel?.isThread() ? channel.parentId : undefined;
  return conversationKey(guildId, parent ?? channelId);
}

/** The asker's name as the channel shows it: server nickname, else global display name, else username. */
export function displayName(
  member: GuildMember | { nick?: string | null } | null | undefined,
  user: User,
): string {
  if (member instanceof GuildMember) return member.displayName;
  return member?.nick || user.displayName;
}
