import type { webApi } from '@slack/bolt';
import type { ScheduleDeliverer } from '../../core/schedules/create-scheduler.js';
import { cut } from '../shared/format-step.js';
import { scheduleHeading } from '../shared/schedule-heading.js';
import type { SlackAsker } from './asker.js';
import type { IntakeDeps } from './intake.js';
import { CONTEXT_CHARS } from './limits.js';
import { plainToMrkdwn } from './mrkdwn.js';
import { runQuestion } from './run-question.js';

/** The team, channel and thread of a Slack conversation key (`slack:<team>:<channel>[:<thread_ts>]`). */
export function placeOfKey(key: string): { team: string; channel: string; threadTs?: string | undefined } {
  const [, team = '', channel = '', threadTs] = key.split(':');
  return { team, channel, threadTs };
}

/**
 * Scheduled runs on Slack, as `/ask` runs them: an answer message in the schedule's channel (or thread)
 * under a line saying whose reminder or schedule it is (a reminder mentions its creator), with the usual
 * Stop button and steps. Notes to a creator are ephemeral messages in the schedule's channel.
 */
export function slackScheduleDelivery(
  deps: IntakeDeps,
  client: webApi.WebClient,
  shutdown: AbortSignal,
): ScheduleDeliverer & Required<Pick<ScheduleDeliverer, 'lookUpCreator'>> {
  return {
    async deliverScheduled(run) {
      const { schedule, asker } = run;
      const place = placeOfKey(schedule.key);
      const slackAsker: SlackAsker = {
        asker,
        user: async () => ({ name: schedule.creator.name, admin: asker.platformAdmin === true }),
      };
      const who = run.reminder ? `<@${asker.userId}>` : plainToMrkdwn(schedule.creator.name);
      const question = plainToMrkdwn(cut(schedule.question, CONTEXT_CHARS).text);
      const delivered = await runQuestion(
        deps,
        client,
        {
          key: schedule.key,
          settingsKey: schedule.settingsKey,
          userId: asker.userId,
          teamId: place.team,
          text: schedule.question,
          place: { channel: place.channel, threadTs: place.threadTs },
          layout: place.threadTs ? 'thread' : 'channel',
          context: scheduleHeading(run, who, question),
          asker: slackAsker,
          resume: run.resume,
        },
        shutdown,
      );
      if (!delivered) throw new Error(`could not post in ${place.channel} (is the bot in the channel?)`);
    },
    // Fresh from `users.info` at each run, past the name cache: a demoted admin runs as a member
    // (https://docs.slack.dev/reference/methods/users.info: is_admin, is_owner, deleted).
    async lookUpCreator(schedule) {
      try {
        const { user } = await client.users.info({ user: schedule.creator.userId });
        const admin = Boolean(user?.is_admin || user?.is_owner || user?.is_primary_owner);
        return { platformAdmin: admin, ...(user?.deleted ? { member: false } : {}) };
      } catch (err) {
        if ((err as { data?: { error?: string } }).data?.error === 'user_not_found') {
          return { platformAdmin: false, member: false };
        }
        throw err;
      }
    },
    async tellScheduleCreator(schedule, text) {
      const place = placeOfKey(schedule.key);
      await client.chat.postEphemeral({
        channel: place.channel,
        user: schedule.creator.userId,
        text: plainToMrkdwn(text),
        ...(place.threadTs ? { thread_ts: place.threadTs } : {}),
      });
    },
  };
}
