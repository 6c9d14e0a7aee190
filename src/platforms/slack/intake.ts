import type { webApi } from '@slack/bolt';
import type { Logger } from '../../core/logger.js';
import type { RunQueue } from '../../core/ports/run-queue.js';
import { type ChannelKnowledge, sharedInto } from '../../knowledge/channel-knowledge.js';
import { lazy } from '../shared/lazy.js';
import type { DocumentLimits } from '../shared/read-document.js';
import { WORDING } from '../shared/wording.js';
import type { WorkTracker } from '../shared/work-tracker.js';
import { slackAsker } from './asker.js';
import { downloadSlackFiles, type SlackFile } from './attached-files.js';
import { conversationKey } from './conversation-key.js';
import { type RunDeps, runQuestion } from './run-question.js';
import { type SlackAttachment, sharedMessages } from './shared-messages.js';
import { questionFromSlack } from './slack-text.js';
import { acknowledge, askerTeam, threadMessageOf } from './thread-follow.js';
import type { ThreadReader } from './thread-history.js';

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
  files?: readonly SlackFile[] | undefined;
  /** Message attachments: a shared (forwarded) message is one (see shared-messages.ts). */
  attachments?: readonly SlackAttachment[] | undefined;
}

/** Where an event came from. */
export interface Delivery {
  eventId?: string | undefined;
  teamId: string;
  botUserId?: string | undefined;
  /** The bot's bot id (`B…`), which its own messages carry. */
  botId?: string | undefined;
  retryNum?: number | undefined;
}

/** What intake needs. */
export interface IntakeDeps extends RunDeps {
  work: WorkTracker;
  /** Admits each delivery once, whichever replica receives each copy, and gives it its place in line. */
  line: Pick<RunQueue, 'arrive'>;
  logger: Logger;
  /** Reads the earlier messages of a thread a question was asked in. */
  threads: ThreadReader;
  /** ATTACHMENT_MAX_BYTES. */
  attachmentMaxBytes: number;
  /** PDF and Office attachments: read to text within these. */
  documents?: DocumentLimits | undefined;
  /** Where files read in a channel are kept for its `search_knowledge`; unset: they are not kept. */
  knowledge?: ChannelKnowledge | undefined;
}

/** Turns Slack message events into runs. Returns at once: the run goes on in the background. */
export interface Intake {
  /** `app_mention`: the bot was mentioned in a channel it is in. */
  mention(message: IncomingMessage, delivery: Delivery, client: webApi.WebClient): void;
  /**
   * `message`: direct messages with the bot are questions (no mention needed); in a channel, a reply in a
   * thread the bot follows is one when thread following says so (see ThreadFollows).
   */
  message(message: IncomingMessage, delivery: Delivery, client: webApi.WebClient): void;
}

/** Message subtypes that are still a person writing to the bot. */
const ASKING_SUBTYPES = new Set(['file_share', 'thread_broadcast']);

/** Creates the event intake: filtering, de-duplication, and the hand-off to a background run. */
export function createIntake(deps: IntakeDeps): Intake {
  const { work, line, logger } = deps;

  function accept(message: IncomingMessage, delivery: Delivery, client: webApi.WebClient): void {
    // Bots (this one included), edits, joins, deletions and other subtypes never start a run; a message with
    // a file attached, or a thread reply also sent to the channel, is still a person asking something.
    if (message.subtype && !ASKING_SUBTYPES.has(message.subtype)) return;
    if (message.bot_id || message.edited) return;
    if (!message.user || message.user === delivery.botUserId) return;
    const deliveries = [`slack:message:${delivery.teamId}:${message.channel}:${message.ts}`];
    if (delivery.eventId) deliveries.push(`slack:event:${delivery.eventId}`);
    // A reply in a thread has a thread_ts other than its own ts; a thread's parent message does not.
    const threadTs = message.thread_ts && message.thread_ts !== message.ts ? message.thread_ts : undefined;
    const files = message.files ?? [];
    // A shared message is quoted as data; shared alone, it asks what that message says.
    const shared = sharedMessages(message.attachments);
    const text =
      questionFromSlack(message.text ?? '', delivery.botUserId) ||
      (shared.length > 0 ? WORDING.forwardedOnly : files.length > 0 ? WORDING.filesOnly : '');
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
    const key = conversationKey(delivery.teamId, message.channel, threadTs);
    work.run('a Slack question', async (signal) => {
      let arrival: Awaited<ReturnType<RunQueue['arrive']>>;
      try {
        arrival = await line.arrive(key, 'slack', deliveries);
      } catch (err) {
        logger.error({ err }, 'could not admit a Slack event');
        await whisper(WORDING.storageUnavailable);
        return;
      }
      if (!arrival) {
        logger.debug(
          { eventId: delivery.eventId, retryNum: delivery.retryNum },
          'duplicate delivery ignored',
        );
        return;
      }
      if (!text) {
        arrival.leave();
        await whisper(WORDING.bareMention);
        return;
      }
      const team = askerTeam(message) ?? delivery.teamId;
      const asker = slackAsker(deps.users, client, user, team, message.channel, message.channel_type);
      // Checked before anything is posted, so a refusal is one private line and nothing else.
      const access = await deps.assistant.access(asker.asker, key).catch((err: unknown) => {
        arrival.leave();
        throw err;
      });
      if (!access.allowed) {
        arrival.leave();
        await whisper(access.message);
        return;
      }
      const thread = threadTs
        ? { key, channel: message.channel, threadTs, beforeTs: message.ts, ...delivery }
        : undefined;
      await runQuestion(
        deps,
        client,
        {
          key,
          settingsKey: conversationKey(delivery.teamId, message.channel),
          userId: user,
          teamId: delivery.teamId,
          askerTeamId: team,
          channelType: message.channel_type,
          text,
          place: { channel: message.channel, threadTs },
          layout: threadTs ? 'thread' : 'channel',
          questionTs: message.ts,
          dm: asker.asker.dm,
          asker,
          thread:
            thread || shared.length > 0
              ? lazy(async () => [
                  ...(thread ? await deps.threads.read(client, { ...thread, whole: await fresh(key) }) : []),
                  ...shared,
                ])
              : undefined,
          attachments:
            files.length > 0
              ? sharedInto(
                  deps.knowledge,
                  {
                    scope: conversationKey(delivery.teamId, message.channel),
                    sharedBy: asker.asker.principal,
                  },
                  downloadSlackFiles(files, client, {
                    maxBytes: deps.attachmentMaxBytes,
                    documents: deps.documents,
                    signal,
                    logger,
                  }),
                )
              : undefined,
          onAnswered: thread ? (ts) => deps.threads.answered(key, ts) : undefined,
          arrival,
        },
        signal,
      );
    });
  }

  /** Whether the conversation `key` remembers nothing yet (read in its turn, so its memory is settled). */
  async function fresh(key: string): Promise<boolean> {
    const memory = await deps.assistant.history(key).catch(() => undefined);
    return memory !== undefined && memory.turns.length === 0 && !memory.summary;
  }

  /** A reply in a channel's thread: answered, acknowledged or left, as following decides. */
  function follow(message: IncomingMessage, delivery: Delivery, client: webApi.WebClient): void {
    const follows = deps.follows;
    if (!follows || message.bot_id || message.edited) return;
    if (message.subtype && !ASKING_SUBTYPES.has(message.subtype)) return;
    if (message.user === delivery.botUserId) return;
    const seen = threadMessageOf(message, delivery.teamId, delivery.botUserId);
    if (!seen) return;
    work.run('a Slack thread reply', async () => {
      const verdict = await follows.consider(seen);
      if (verdict === 'answer') accept(message, delivery, client);
      else if (verdict === 'acknowledge') {
        await acknowledge(client, message, logger);
        // A thanks ends the conversation: its agent session is closed (Slack: "conversation is complete").
        if (message.thread_ts)
          await deps.statuses.close(client, delivery.teamId, message.channel, message.thread_ts);
      }
    });
  }

  return {
    mention: accept,
    message(message, delivery, client) {
      if (message.channel_type === 'im') accept(message, delivery, client);
      else follow(message, delivery, client);
    },
  };
}
