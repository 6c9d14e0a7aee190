import type { Message } from 'discord.js';
import { WORDING } from '../shared/wording.js';
import { answer, type DiscordContext } from './answer.js';
import { messageAsker } from './asker.js';
import { stopRow } from './buttons.js';
import { conversationKey, displayName, settingsKeyOf } from './conversation.js';
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
  const asker = messageAsker(message);
  // Checked before anything is shown, so a refusal is one short reply and nothing else.
  const access = await ctx.assistant.access(asker, key);
  if (!access.allowed) {
    await message.reply({ content: access.message, allowedMentions: NO_PINGS });
    return;
  }
  try {
    if (message.channel.isSendable()) await message.channel.sendTyping();
  } catch (err) {
    log.debug({ err }, 'could not show typing');
  }
  const run = ctx.runs.start(asker.userId, ctx.signal);
  let reply: Message;
  try {
    reply = await message.reply({
      content: WORDING.thinking,
      allowedMentions: REPLY_PING,
      components: [stopRow(run.id)],
    });
  } catch (err) {
    run.end();
    // Nowhere to show anything (no Send Messages permission, channel gone): the logs are all we have.
    log.warn({ err }, 'could not reply to a question; is the Send Messages permission missing?');
    return;
  }
  const author = displayName(message.member, message.author);
  const settingsKey = settingsKeyOf(message.guildId, message.channelId, message.channel);
  await answer(
    { key, settingsKey, author, text: question, asker },
    replySurface(reply, { threads: canThread(message) }),
    ctx,
    run,
  );
}
