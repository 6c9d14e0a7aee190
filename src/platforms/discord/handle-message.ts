import type { Message } from 'discord.js';
import { sharedInto } from '../../knowledge/channel-knowledge.js';
import { downloadAll, type RemoteFile } from '../shared/download-attachment.js';
import { discordFilePolicy } from '../shared/download-policy.js';
import { lazy } from '../shared/lazy.js';
import { WORDING } from '../shared/wording.js';
import { answer, type DiscordContext } from './answer.js';
import { arrive, type DiscordPlaceholder } from './arrive.js';
import { messageAsker } from './asker.js';
import { stopRow } from './buttons.js';
import { conversationKey, displayName, settingsKeyOf } from './conversation.js';
import { forwardedOf } from './forwarded.js';
import { canThread, questionOf } from './intake.js';
import { NO_PINGS, REPLY_PING } from './limits.js';
import { replySurface } from './reply-surface.js';
import { ACKNOWLEDGED, followUpText, threadMessageOf } from './thread-follow.js';

/**
 * Answers a mention or DM: typing, a placeholder reply, steps in a thread, the answer edited into the reply.
 * In a DM a lone forward waits briefly for its comment (see forward-comment.ts), which is then the
 * question, the forward its quoted context: one answer, to the comment.
 */
export async function handleMessage(message: Message, ctx: DiscordContext): Promise<void> {
  const botId = message.client.user.id;
  let asked = questionOf(message, botId);
  // A forward and the comment Discord sends right after it, in a DM: one question, the comment asking.
  let forwarded = forwardedOf(message);
  if (ctx.forwardComments && asked !== null && !message.inGuild()) {
    if (forwarded && !asked) {
      if (!(await ctx.forwardComments.hold(message, ctx.signal))) return;
    } else if (!forwarded) {
      const taken = ctx.forwardComments.take(message);
      forwarded = taken && forwardedOf(taken);
    }
  }
  const log = ctx.logger.child({ channel: message.channelId, message: message.id });
  // In a thread, every person's message is seen by following: another person speaking makes the bot stand back.
  const seen = threadMessageOf(message, botId, asked !== null);
  const verdict = seen && ctx.follows ? await ctx.follows.consider(seen) : 'ignore';
  if (asked === null) {
    if (verdict === 'acknowledge') {
      await message
        .react(ACKNOWLEDGED)
        .catch((err: unknown) => log.warn({ err }, 'could not react to a thanks'));
      return;
    }
    if (verdict !== 'answer') return;
    asked = followUpText(message);
  }
  // A forward's own content is empty: alone, it asks what the forwarded message says.
  const files = [...attachedFiles(message), ...(forwarded?.files ?? [])];
  const question = asked || (forwarded ? WORDING.forwardedOnly : files.length > 0 ? WORDING.filesOnly : '');
  if (!question) {
    await message.reply({ content: WORDING.bareMention, allowedMentions: NO_PINGS });
    return;
  }
  const key = conversationKey(message.guildId, message.channelId);
  const arrival = await arrive(ctx, key, `discord:message:${message.id}`, (content) =>
    message.reply({ content, allowedMentions: NO_PINGS }),
  );
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
    arrival?.leave();
    return;
  }
  arrival?.placed({ channelId: reply.channelId, messageId: reply.id } satisfies DiscordPlaceholder);
  const author = displayName(message.member, message.author);
  const settingsKey = settingsKeyOf(message.guildId, message.channelId, message.channel);
  // Read in the channel's turn, so that an answer still being written there is not read as context.
  const context = lazy(async () => {
    const earlier = await ctx.history.read(message, key);
    return forwarded ? [...earlier, forwarded.context] : earlier;
  });
  const attachments =
    files.length > 0
      ? sharedInto(
          ctx.knowledge,
          { scope: settingsKey, sharedBy: asker.principal },
          downloadAll(files, {
            maxBytes: ctx.attachmentMaxBytes,
            documents: ctx.documents,
            signal: ctx.signal,
            logger: log,
            // Only Discord's CDN (and DISCORD_API_URL's host, where tests serve attachments).
            policy: discordFilePolicy(message.client.rest.options.api),
          }),
        )
      : undefined;
  const view = await answer(
    { key, settingsKey, author, text: question, asker, arrival, context, attachments },
    replySurface(reply, { threads: canThread(message) }),
    ctx,
    run,
  );
  if (view.phase !== 'final') return;
  if (message.channel.isThread()) ctx.history.answered(key, reply.id);
  if (message.inGuild()) {
    // A thread started from the reply (its steps) has the reply's id.
    const steps = canThread(message) ? conversationKey(message.guildId, reply.id) : undefined;
    const keys = [message.channel.isThread() ? key : undefined, steps];
    await ctx.follows?.answered(keys, asker.principal);
  }
}

/** The files attached to a message; Discord's attachment URLs need no token, and are signed (never logged). */
function attachedFiles(message: Message): RemoteFile[] {
  return [...message.attachments.values()].map((a) => ({
    name: a.name,
    mediaType: a.contentType ?? undefined,
    size: a.size,
    url: a.url,
  }));
}
