import { type Message, MessageFlags, type SendableChannels, ThreadAutoArchiveDuration } from 'discord.js';
import type { ButtonRow } from './buttons.js';
import { NO_PINGS, REPLY_PING } from './limits.js';
import type { AnswerSurface } from './render.js';
import type { PostEditable } from './steps.js';
import type { Card, PostCard } from './steps-card.js';

/** The bot's reply to a message: edited with the answer, threads started from it, overflow in its channel. */
export function replySurface(reply: Message, options: { threads: boolean }): AnswerSurface {
  const channel = () => {
    if (!reply.channel.isSendable()) throw new Error(`cannot send in channel ${reply.channelId}`);
    return reply.channel;
  };
  return {
    async edit(text, buttons) {
      await reply.edit({
        content: text,
        allowedMentions: REPLY_PING,
        ...(buttons ? { components: buttons } : {}),
      });
    },
    async followUp(text) {
      await channel().send({ content: text, allowedMentions: NO_PINGS });
    },
    post: (text, buttons) => postEditable(channel(), text, buttons),
    postCard: (card) => postCardIn(channel(), card),
    openThread: options.threads
      ? async (name) => {
          const thread = await reply.startThread({
            name,
            autoArchiveDuration: ThreadAutoArchiveDuration.OneDay,
          });
          return {
            post: (text, buttons) => postEditable(thread, text, buttons),
            postCard: (card) => postCardIn(thread, card),
          };
        }
      : undefined,
  };
}

/** Sends `text` (with `buttons`) in `to`, and resolves with the function that edits that message. */
async function postEditable(
  to: SendableChannels,
  text: string,
  buttons?: ButtonRow[],
): ReturnType<PostEditable> {
  const shown = (content: string, rows?: ButtonRow[]) => ({
    content,
    allowedMentions: NO_PINGS,
    ...(rows ? { components: rows } : {}),
  });
  const message = await to.send(shown(text, buttons));
  return async (next, rows) => {
    await message.edit(shown(next, rows));
  };
}

/** Sends a components v2 card in `to`, and resolves with the function that edits it (still a card). */
async function postCardIn(to: SendableChannels, card: Card): ReturnType<PostCard> {
  const message = await to.send({
    components: [card],
    flags: MessageFlags.IsComponentsV2,
    allowedMentions: NO_PINGS,
  });
  return async (next) => {
    await message.edit({ components: [next], allowedMentions: NO_PINGS });
  };
}
