import type { webApi } from '@slack/bolt';
import type { ThreadMessage } from '../../core/follow/thread-follows.js';
import { slackPrincipal } from '../../core/governance/principal.js';
import type { Logger } from '../../core/logger.js';
import { isAcknowledgement } from '../shared/acknowledgement.js';
import { conversationKey } from './conversation-key.js';

/** The reaction a thanks or ok in a followed thread gets instead of an answer. */
export const ACKNOWLEDGED = 'thumbsup';

/** The fields of a `message` event that following reads. */
interface ThreadReply {
  user?: string | undefined;
  text?: string | undefined;
  ts: string;
  channel: string;
  thread_ts?: string | undefined;
}

/** The team the writer belongs to, as the event names it (a Slack Connect guest's is not the channel's). */
export function askerTeam(event: object): string | undefined {
  const named = event as { user_team?: unknown; team?: unknown };
  const team = named.user_team ?? named.team;
  return typeof team === 'string' && team ? team : undefined;
}

/**
 * A person's reply in a channel thread as following sees it, or undefined for a message outside any thread.
 * `<@U…>` other than the bot's, and `<!here>`, `<!channel>`, `<!everyone>`, `<!subteam^…>`, address others.
 */
export function threadMessageOf(
  message: ThreadReply,
  teamId: string,
  botUserId?: string,
): ThreadMessage | undefined {
  const threadTs = message.thread_ts && message.thread_ts !== message.ts ? message.thread_ts : undefined;
  if (!threadTs || !message.user) return undefined;
  const text = message.text ?? '';
  const mentioned = [...text.matchAll(/<@([UW][A-Z0-9]+)(?:\|[^>]*)?>/g)].map((m) => m[1]);
  const mentionsBot = botUserId !== undefined && mentioned.includes(botUserId);
  const mentionsOthers =
    mentioned.some((id) => id !== botUserId) || /<!(?:here|channel|everyone|subteam\^)/.test(text);
  return {
    key: conversationKey(teamId, message.channel, threadTs),
    settingsKey: conversationKey(teamId, message.channel),
    author: slackPrincipal(message.user, askerTeam(message) ?? teamId),
    mentionsBot,
    mentionsOthers: mentionsOthers && !mentionsBot,
    acknowledgement: isAcknowledgement(text.replace(/<[^>]*>/g, ' ')),
  };
}

/**
 * The threads a follow-up to an answer in a channel could come in: the question's (or the one it was asked
 * in) and the answer's own, where its steps are.
 */
export function answeredThreads(
  teamId: string,
  channel: string,
  timestamps: readonly (string | undefined)[],
): string[] {
  return timestamps.flatMap((ts) => (ts ? [conversationKey(teamId, channel, ts)] : []));
}

/** Reacts to a thanks or ok instead of answering it; a reaction already there (another replica's) is fine. */
export async function acknowledge(
  client: webApi.WebClient,
  message: { channel: string; ts: string },
  logger: Logger,
): Promise<void> {
  try {
    await client.reactions.add({ channel: message.channel, timestamp: message.ts, name: ACKNOWLEDGED });
  } catch (err) {
    const code = (err as { data?: { error?: string } }).data?.error;
    if (code !== 'already_reacted')
      logger.warn({ err }, 'could not react to a thanks; is reactions:write granted?');
  }
}
