import type { Client, Message } from 'discord.js';
import type { SystemRunDelivery } from '../../core/ports/system-run-delivery.js';
import { systemRunRequest } from '../../core/runs/system-run-request.js';
import { pingsAsker, systemRunHeading } from '../shared/system-run-heading.js';
import { WORDING } from '../shared/wording.js';
import { answer, type DiscordContext } from './answer.js';
import { stopRow } from './buttons.js';
import { discordCreatorRights } from './creator-rights.js';
import { NO_PINGS, threadName } from './limits.js';
import { replySurface } from './reply-surface.js';

/** The channel id of a Discord conversation key (`discord:<guild|dm>:<channel>`). */
export function channelOfKey(key: string): string {
  return key.slice(key.lastIndexOf(':') + 1);
}

/**
 * Runs nobody just asked for on Discord (schedules, runs going on after a restart): a message in the run's
 * channel (pinging its person for a reminder) that becomes the answer, with the usual Stop button, live
 * steps in a thread and feedback buttons. Notes to the person go by DM, or into the channel (mentioning
 * them) where a DM cannot be opened.
 */
export function discordSystemRunDelivery(
  client: () => Client | undefined,
  ctx: DiscordContext,
): SystemRunDelivery & Required<Pick<SystemRunDelivery, 'lookUp'>> {
  const connected = () => {
    const bot = client();
    if (!bot?.isReady()) throw new Error('not connected to Discord');
    return bot;
  };
  return {
    async deliver(run) {
      const { asker } = run;
      const channel = await connected().channels.fetch(channelOfKey(run.key));
      if (!channel?.isSendable()) throw new Error(`cannot send in channel ${channelOfKey(run.key)}`);
      const pings = pingsAsker(run);
      const who = pings ? `<@${asker.userId}>` : run.author;
      const header = `-# ${systemRunHeading(run, who, threadName(run.question))}`;
      const control = ctx.runs.start(asker.userId, ctx.signal);
      let message: Message;
      try {
        message = await channel.send({
          content: `${header}\n${WORDING.thinking}`,
          components: [stopRow(control.id)],
          allowedMentions: pings ? { parse: [], users: [asker.userId] } : NO_PINGS,
        });
      } catch (err) {
        control.end();
        throw err;
      }
      const threads = message.inGuild() && !message.channel.isThread() && 'threads' in message.channel;
      await answer(systemRunRequest(run), replySurface(message, { threads }), ctx, control, header);
    },
    lookUp: (whom) => discordCreatorRights(connected(), whom),
    async tell(to, text) {
      const bot = connected();
      const { userId } = to.asker;
      try {
        await bot.users.send(userId, { content: text, allowedMentions: NO_PINGS });
        return;
      } catch (err) {
        ctx.logger.debug({ err }, 'could not DM the person a run is for; telling them in the channel');
      }
      const channel = await bot.channels.fetch(channelOfKey(to.key));
      if (!channel?.isSendable()) throw new Error('nowhere to tell the person a run is for');
      await channel.send({
        content: `<@${userId}> ${text}`,
        allowedMentions: { parse: [], users: [userId] },
      });
    },
  };
}
