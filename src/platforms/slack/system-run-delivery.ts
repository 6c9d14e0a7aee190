import type { webApi } from '@slack/bolt';
import type { SystemRunDelivery } from '../../core/ports/system-run-delivery.js';
import { systemRunRequest } from '../../core/runs/system-run-request.js';
import { cut } from '../shared/format-step.js';
import { pingsAsker, systemRunHeading } from '../shared/system-run-heading.js';
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
 * Runs nobody just asked for on Slack (schedules, runs going on after a restart), as `/ask` runs them: an
 * answer message in the run's channel (or thread) under a line saying why and for whom (a reminder mentions
 * its creator), with the usual Stop button and steps. Notes to the person are ephemeral messages there.
 */
export function slackSystemRunDelivery(
  deps: IntakeDeps,
  client: webApi.WebClient,
  shutdown: AbortSignal,
): SystemRunDelivery & Required<Pick<SystemRunDelivery, 'lookUp'>> {
  return {
    async deliver(run) {
      const { asker } = run;
      const place = placeOfKey(run.key);
      const slackAsker: SlackAsker = {
        asker,
        user: async () => ({ name: run.author, admin: asker.platformAdmin === true }),
      };
      const who = pingsAsker(run) ? `<@${asker.userId}>` : plainToMrkdwn(run.author);
      const question = plainToMrkdwn(cut(run.question, CONTEXT_CHARS).text);
      const delivered = await runQuestion(
        deps,
        client,
        {
          key: run.key,
          settingsKey: run.settingsKey,
          userId: asker.userId,
          teamId: place.team,
          text: run.question,
          place: { channel: place.channel, threadTs: place.threadTs },
          layout: place.threadTs ? 'thread' : 'channel',
          context: systemRunHeading(run, who, question),
          asker: slackAsker,
          resume: systemRunRequest(run).resume,
        },
        shutdown,
      );
      if (!delivered) throw new Error(`could not post in ${place.channel} (is the bot in the channel?)`);
    },
    // Fresh from `users.info` at each run, past the name cache: a demoted admin runs as a member
    // (https://docs.slack.dev/reference/methods/users.info: is_admin, is_owner, deleted).
    async lookUp(whom) {
      try {
        const { user } = await client.users.info({ user: whom.asker.userId });
        const admin = Boolean(user?.is_admin || user?.is_owner || user?.is_primary_owner);
        return { platformAdmin: admin, ...(user?.deleted ? { member: false } : {}) };
      } catch (err) {
        if ((err as { data?: { error?: string } }).data?.error === 'user_not_found') {
          return { platformAdmin: false, member: false };
        }
        throw err;
      }
    },
    async tell(to, text) {
      const place = placeOfKey(to.key);
      await client.chat.postEphemeral({
        channel: place.channel,
        user: to.asker.userId,
        text: plainToMrkdwn(text),
        ...(place.threadTs ? { thread_ts: place.threadTs } : {}),
      });
    },
  };
}
