import type { Client, Message } from 'discord.js';
import type { ScheduleDeliverer } from '../../core/schedules/create-scheduler.js';
import { scheduleHeading } from '../shared/schedule-heading.js';
import { WORDING } from '../shared/wording.js';
import { answer, type DiscordContext } from './answer.js';
import { stopRow } from './buttons.js';
import { discordCreatorRights } from './creator-rights.js';
import { NO_PINGS, threadName } from './limits.js';
import { replySurface } from './surfaces.js';

/** The channel id of a Discord conversation key (`discord:<guild|dm>:<channel>`). */
export function channelOfKey(key: string): string {
  return key.slice(key.lastIndexOf(':') + 1);
}

/**
 * Scheduled runs on Discord: a message in the schedule's channel (pinging the creator for a reminder) that
 * becomes the answer, with the usual Stop button, live steps in a thread and feedback buttons. Notes to a
 * creator go by DM, or into the channel (mentioning them) where a DM cannot be opened.
 */
export function discordScheduleDelivery(
  client: () => Client | undefined,
  ctx: DiscordContext,
): ScheduleDeliverer & Required<Pick<ScheduleDeliverer, 'lookUpCreator'>> {
  const connected = () => {
    const bot = client();
    if (!bot?.isReady()) throw new Error('not connected to Discord');
    return bot;
  };
  return {
    async deliverScheduled(run) {
      const { schedule, asker } = run;
      const channel = await connected().channels.fetch(channelOfKey(schedule.key));
      if (!channel?.isSendable()) throw new Error(`cannot send in channel ${channelOfKey(schedule.key)}`);
      const who = run.reminder ? `<@${asker.userId}>` : schedule.creator.name;
      const header = `-# ${scheduleHeading(run, who, threadName(schedule.question))}`;
      const control = ctx.runs.start(asker.userId, ctx.signal);
      let message: Message;
      try {
        message = await channel.send({
          content: `${header}\n${WORDING.thinking}`,
          components: [stopRow(control.id)],
          allowedMentions: run.reminder ? { parse: [], users: [asker.userId] } : NO_PINGS,
        });
      } catch (err) {
        control.end();
        throw err;
      }
      const threads = message.inGuild() && !message.channel.isThread() && 'threads' in message.channel;
      await answer(
        {
          key: schedule.key,
          settingsKey: schedule.settingsKey,
          author: schedule.creator.name,
          text: schedule.question,
          asker,
          resume: run.resume,
        },
        replySurface(message, { threads }),
        ctx,
        control,
        header,
      );
    },
    lookUpCreator: (schedule) => discordCreatorRights(connected(), schedule),
    async tellScheduleCreator(schedule, text) {
      const bot = connected();
      try {
        await bot.users.send(schedule.creator.userId, { content: text, allowedMentions: NO_PINGS });
        return;
      } catch (err) {
        ctx.logger.debug({ err }, 'could not DM a schedule’s creator; telling them in the channel');
      }
      const channel = await bot.channels.fetch(channelOfKey(schedule.key));
      if (!channel?.isSendable()) throw new Error('nowhere to tell the creator');
      await channel.send({
        content: `<@${schedule.creator.userId}> ${text}`,
        allowedMentions: { parse: [], users: [schedule.creator.userId] },
      });
    },
  };
}
