import { cleanContent, type Message } from 'discord.js';
import type { ThreadMessage } from '../../core/follow/thread-follows.js';
import { isAcknowledgement } from '../shared/acknowledgement.js';
import { messageAsker } from './asker.js';
import { conversationKey, settingsKeyOf } from './conversation.js';

/** The reaction a thanks or ok in a followed thread gets instead of an answer. */
export const ACKNOWLEDGED = '👍';

/**
 * A person's message in a thread or forum post as following sees it, or undefined elsewhere (channels, DMs) and
 * for bots, webhooks and system messages. `mentionsBot` is the caller's reading (a user or the bot's role).
 */
export function threadMessageOf(
  message: Message,
  botId: string,
  mentionsBot: boolean,
): ThreadMessage | undefined {
  if (!message.inGuild() || !message.channel.isThread()) return undefined;
  if (message.author.bot || message.webhookId || message.system) return undefined;
  const { mentions } = message;
  const botRole = mentions.roles.size > 0 ? message.guild.roles.botRoleFor(botId)?.id : undefined;
  const mentionsOthers =
    mentions.everyone ||
    mentions.users.some((u) => u.id !== botId) ||
    mentions.roles.some((r) => r.id !== botRole);
  return {
    key: conversationKey(message.guildId, message.channelId),
    settingsKey: settingsKeyOf(message.guildId, message.channelId, message.channel),
    author: messageAsker(message).principal,
    mentionsBot,
    mentionsOthers: mentionsOthers && !mentionsBot,
    acknowledgement: isAcknowledgement(message.content),
  };
}

/** The question a follow-up asks: its text with mentions made readable. */
export function followUpText(message: Message): string {
  return cleanContent(message.content, message.channel)
    .replace(/[ \t]+/g, ' ')
    .trim();
}
