import type { webApi } from '@slack/bolt';
import type { Logger } from '../../core/logger.js';
import { WORDING } from '../shared/wording.js';
import type { WorkTracker } from '../shared/work-tracker.js';
import { slackAsker } from './asker.js';
import { conversationKey } from './conversation-key.js';
import type { Deduper } from './event-dedupe.js';
import { type RunDeps, runQuestion } from './run-question.js';
import { questionFromSlack } from './slack-text.js';

/** The fields of a Slack message event (`app_mention` or `message`) that intake looks at. */
export interface IncomingMessage {
  user?: string | undefined;
  text?: string | undefined;
  ts: string;
  channel: string;
  channel_type?: string | undefined;
  thread_ts?: string | undefined;
  subtype?: string | undefined;
  bot_id?: string | undefined;
  edited?: unknown;
}

/** Where an event came from. */
export interface Delivery {
  eventId?: string | undefined;
  teamId: string;
  botUserId?: string | undefined;
  retryNum?: number | undefined;
}

/** What intake needs. */
export interface IntakeDeps extends RunDeps {
  work: WorkTracker;
  dedupe: Deduper;
  logger: Logger;
}

/** Turns Slack message events into runs. Returns at once: the run goes on in the background. */
export interface Intake {
  /** `app_mention`: the bot was mentioned in a channel it is in. */
  mention(message: IncomingMessage, delivery: Delivery, client: webApi.WebClient): void;
  /** `message`: only direct messages with the bot are questions (no mention needed). */
  message(message: IncomingMessage, delivery: Delivery, client: webApi.WebClient): void;
}

/** Message subtypes that are still a person writing to the bot. */
const ASKING_SUBTYPES = new Set(['file_share', 'thread_broadcast']);

/** Creates the event intake: filtering, de-duplication, and the hand-off to a background run. */
export function createIntake(deps: IntakeDeps): Intake {
  const { work, dedupe, logger } = deps;

  function accept(message: IncomingMessage, delivery: Delivery, client: webApi.WebClient): void {
    // Bots (this one included), edits, joins, deletions and other subtypes never start a run; a message with
    // a file attached, or a thread reply also sent to the channel, is still a person asking something.
    if (message.subtype && !ASKING_SUBTYPES.has(message.subtype)) return;
    if (message.bot_id || message.edited) return;
    if (!message.user || message.user === delivery.botUserId) return;
    const keys = [`message:${message.channel}:${message.ts}`];
    if (delivery.eventId) keys.push(`event:${delivery.eventId}`);
    if (!dedupe.firstTime(...keys)) {
      logger.debug({ eventId: delivery.eventId, retryNum: delivery.retryNum }, 'duplicate delivery ignored');
      return;
    }
    // A reply in a thread has a thread_ts other than its own ts; a thread's parent message does not.
    const threadTs = message.thread_ts && message.thread_ts !== message.ts ? message.thread_ts : undefined;
    const text = questionFromSlack(message.text ?? '', delivery.botUserId);
    const user = message.user;
    const whisper = (reply: string) =>
      client.chat
        .postEphemeral({
          channel: message.channel,
          user,
          ...(threadTs ? { thread_ts: threadTs } : {}),
          text: reply,
        })
        .catch((err: unknown) => logger.warn({ err }, 'could not post a private reply'));
    if (!text) {
      work.run('the Slack usage hint', () => whisper(WORDING.bareMention).then(() => {}));
      return;
    }
    const key = conversationKey(delivery.teamId, message.channel, threadTs);
    const asker = slackAsker(deps.users, client, user, message.channel, message.channel_type);
    work.run('a Slack question', async (signal) => {
      // Checked before anything is posted, so a refusal is one private line and nothing else.
      const access = await deps.assistant.access(asker.asker, key);
      if (!access.allowed) {
        await whisper(access.message);
        return;
      }
      await runQuestion(
        deps,
        client,
        {
          key,
          settingsKey: conversationKey(delivery.teamId, message.channel),
          userId: user,
          teamId: delivery.teamId,
          text,
          place: { channel: message.channel, threadTs },
          layout: threadTs ? 'thread' : 'channel',
          questionTs: message.ts,
          dm: asker.asker.dm,
          asker,
        },
        signal,
      );
    });
  }

  return {
    mention: accept,
    message(message, delivery, client) {
      if (message.channel_type === 'im') accept(message, delivery, client);
    },
  };
}
