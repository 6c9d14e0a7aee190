import { cleanContent, type Message } from 'discord.js';

/**
 * The question a message asks the bot, or null when the bot should stay out of it: messages from bots
 * (itself included), webhooks and the system, and guild messages that do not mention the bot. A DM is
 * always a question. The bot's own mention is removed; other mentions become readable names.
 */
export function questionOf(message: Message, botId: string): string | null {
  if (message.author.bot || message.webhookId || message.system) return null;
  // The bot's managed role counts as mentioning it; looked up only when some role was mentioned.
  const botRole = message.mentions.roles.size > 0 ? message.guild?.roles.botRoleFor(botId)?.id : undefined;
  if (
    message.inGuild() &&
    !message.mentions.users.has(botId) &&
    !(botRole && message.mentions.roles.has(botRole))
  ) {
    return null;
  }
  let text = message.content.replace(new RegExp(`<@!?${botId}>`, 'g'), ' ');
  if (botRole) text = text.replaceAll(`<@&${botRole}>`, ' ');
  return cleanContent(text, message.channel)
    .replace(/[ \t]+/g, ' ')
    .trim();
}

/** Whether a reasoning thread can be started from a message in this channel (not in DMs, threads or forum posts). */
export function canThread(message: Message): boolean {
  return message.inGuild() && !message.channel.isThread() && 'threads' in message.channel;
}
