import {
  type APIThreadChannel,
  type ChatInputCommandInteraction,
  type Message,
  Routes,
  ThreadAutoArchiveDuration,
} from 'discord.js';
import { NO_PINGS, REPLY_PING } from './limits.js';
import type { AnswerSurface } from './render.js';

/** The bot's reply to a message: edited with the answer, threads started from it, overflow in its channel. */
export function replySurface(reply: Message, options: { threads: boolean }): AnswerSurface {
  const send = (text: string) => {
    if (!reply.channel.isSendable()) throw new Error(`cannot send in channel ${reply.channelId}`);
    return reply.channel.send({ content: text, allowedMentions: NO_PINGS });
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
      await send(text);
    },
    async post(text) {
      const message = await send(text);
      return async (next) => {
        await message.edit({ content: next, allowedMentions: NO_PINGS });
      };
    },
    openThread: options.threads
      ? async (name) => {
          const thread = await reply.startThread({
            name,
            autoArchiveDuration: ThreadAutoArchiveDuration.OneDay,
          });
          return async (text) => {
            await thread.send({ content: text, allowedMentions: NO_PINGS });
          };
        }
      : undefined,
  };
}

/** A deferred slash command's response: edited with the answer, overflow and the steps message as follow-ups. */
export function interactionSurface(
  interaction: ChatInputCommandInteraction,
  options: { threads: boolean },
): AnswerSurface {
  const { rest } = interaction.client;
  return {
    async edit(text, buttons) {
      await interaction.editReply({
        content: text,
        allowedMentions: NO_PINGS,
        ...(buttons ? { components: buttons } : {}),
      });
    },
    async followUp(text) {
      await interaction.followUp({ content: text, allowedMentions: NO_PINGS });
    },
    async post(text) {
      const message = await interaction.followUp({ content: text, allowedMentions: NO_PINGS });
      return async (next) => {
        await interaction.editReply({ message, content: next, allowedMentions: NO_PINGS });
      };
    },
    openThread: options.threads
      ? async (name) => {
          // Plain REST by ids: the response message need not be in discord.js's cache.
          const reply = await interaction.fetchReply();
          const thread = (await rest.post(Routes.threads(interaction.channelId, reply.id), {
            body: { name, auto_archive_duration: ThreadAutoArchiveDuration.OneDay },
          })) as APIThreadChannel;
          return async (text) => {
            await rest.post(Routes.channelMessages(thread.id), {
              body: { content: text, allowed_mentions: { parse: [] } },
            });
          };
        }
      : undefined,
  };
}
