import type { Message } from 'discord.js';
import { WORDING } from '../shared/wording.js';
import { answer, type DiscordContext } from './answer.js';
import { messageAsker } from './asker.js';
import { conversationKey, displayName } from './conversation.js';
import { canThread, questionOf } from './intake.js';
import { NO_PINGS, REPLY_PING } from './limits.js';
import { replySurface } from './surfaces.js';

/** Answers a mention or DM: typing, a placeholder reply, steps in a thread, the answer edited into the reply. */
export async function handleMessage(message: Message, ctx: DiscordContext): Promise<void> {
  const question = questionOf(message, message.client.user.id);
  if (question === null) return;
  const log = ctx.logger.child({ channel: message.channelId, message: message.id });
  if (!question) {
    await message.reply({ content: WORDING.bareMention, allowedMentions: NO_PINGS });
    return;
  }
  const key = conversationKey(message.guildId, message.channelId);
  const arrival = await arrive(message, key, ctx);
  if (arrival === null) return;
  const asker = messageAsker(message);
  // Checked before anything is shown, so a refusal is one short reply and nothing else.
  const access = await ctx.assistant.access(asker, key).catch((err: unknown) => {
    arrival?.leave();
    throw err;
  });
  if (!access.allowed) {
    arrival?.leave();
    await message.reply({ content: access.message, allowedMentions: NO_PINGS });
    return;
  }
  try {
    if (message.channel.isSendable()) await message.channel.sendTyping();
  } catch (err) {
    log.debug({ err }, 'could not show typing');
  }
  let reply: Message;
  try {
    reply = await message.reply({ content: WORDING.thinking, allowedMentions: REPLY_PING });
  } catch (err) {
    // Nowhere to show anything (no Send Messages permission, channel gone): the logs are all we have.
    log.warn({ err }, 'could not reply to a question; is the Send Messages permission missing?');
    arrival?.leave();
    return;
  }
  arrival?.placed({ channelId: reply.channelId, messageId: reply.id });
  const author = displayName(message.member, message.author);
  await answer(
    { key, author, text: question, asker, arrival },
    replySurface(reply, { threads: canThread(message) }),
    ctx,
  );
}

/**
 * The message's place in the shared line (replicas): null when it was seen already, or when the line cannot
 * be reached (the asker is told so); undefined in one process, where the line is the order of asking.
 */
async function arrive(message: Message, key: string, ctx: DiscordContext) {
  if (!ctx.runs) return undefined;
  try {
    return (await ctx.runs.arrive(key, 'discord', [`discord:message:${message.id}`])) ?? null;
  } catch (err) {
    ctx.logger.error({ err }, 'could not admit a Discord message');
    await message.reply({ content: WORDING.storageUnavailable, allowedMentions: NO_PINGS });
    return null;
  }
}
