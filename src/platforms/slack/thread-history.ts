import type { webApi } from '@slack/bolt';
import { ContextUnavailableError } from '../../core/errors.js';
import { type ContextMessage, OWN_SPEAKER } from '../../core/input/types.js';
import type { Logger } from '../../core/logger.js';
import { createFirstTime } from '../shared/first-time.js';
import { WORDING } from '../shared/wording.js';
import { questionFromSlack } from './slack-text.js';
import { isStepsMessage } from './step-mark.js';
import type { UserDirectory } from './user-names.js';

/** Errors that mean the bot may not read this thread; said once per conversation. */
const NOT_ALLOWED = new Set([
  'missing_scope',
  'not_in_channel',
  'channel_not_found',
  'not_allowed_token_type',
]);
/** Message subtypes that are someone writing (others are joins, topic changes…). */
const WRITTEN = new Set(['thread_broadcast', 'file_share', 'bot_message', 'me_message']);
const PAGE_SIZE = 200;
const MAX_PAGES = 10;
/** Threads whose bot answer is remembered (for `oldest`); the oldest is forgotten first. */
const REMEMBERED_THREADS = 5000;

/** Where a question was asked in a thread. */
export interface ThreadQuestion {
  /** The conversation key, for the bot's last answer there. */
  key: string;
  channel: string;
  threadTs: string;
  /** The question's own ts: only messages before it are read. */
  beforeTs: string;
  botUserId?: string | undefined;
  botId?: string | undefined;
  /**
   * The conversation remembers nothing yet (e.g. a follow-up in the thread of a question asked at the top of
   * the channel, whose answer is in the channel's memory): the bot's answers there are context too.
   */
  whole?: boolean | undefined;
}

/** Reads a Slack thread's earlier messages, those newer than the bot's last answer in it. */
export interface ThreadReader {
  /** Oldest first; rejects with ContextUnavailableError (once per conversation) when the bot may not read it. */
  read(client: webApi.WebClient, question: ThreadQuestion): Promise<ContextMessage[]>;
  /** Notes the bot's answer in a conversation: the next read there starts after it. */
  answered(key: string, ts: string): void;
}

// biome-ignore lint/suspicious/noExplicitAny: conversations.replies messages are loose JSON.
type SlackMessage = any;

/**
 * A thread reader over `conversations.replies`. It leaves out the bot's steps messages and everything up to
 * the bot's last answer in the thread (already in its memory), and keeps the newest `maxMessages`.
 */
export function createThreadReader(deps: {
  users: UserDirectory;
  maxMessages: number;
  logger: Logger;
}): ThreadReader {
  const lastAnswers = new Map<string, string>();
  const firstTime = createFirstTime();

  async function fetchReplies(client: webApi.WebClient, q: ThreadQuestion): Promise<SlackMessage[]> {
    const oldest = q.whole ? undefined : lastAnswers.get(q.key);
    const found: SlackMessage[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const res = await client.conversations.replies({
        channel: q.channel,
        ts: q.threadTs,
        latest: q.beforeTs,
        inclusive: false,
        limit: PAGE_SIZE,
        include_all_metadata: true,
        ...(oldest ? { oldest } : {}),
        ...(cursor ? { cursor } : {}),
      });
      found.push(...(res.messages ?? []));
      cursor = res.response_metadata?.next_cursor || undefined;
      if (!cursor) break;
    }
    // Slack returns the thread's parent whatever the bounds; the bounds hold here.
    return found.filter(
      (m) =>
        typeof m.ts === 'string' &&
        compareTs(m.ts, q.beforeTs) < 0 &&
        (!oldest || compareTs(m.ts, oldest) > 0),
    );
  }

  async function toContext(
    client: webApi.WebClient,
    m: SlackMessage,
    q: ThreadQuestion,
  ): Promise<ContextMessage> {
    const own = isOwn(m, q);
    const author = own
      ? OWN_SPEAKER
      : m.user && !m.bot_id
        ? (await deps.users(client, m.user)).name
        : (m.username ?? m.bot_profile?.name ?? 'a bot');
    const files = (m.files ?? []).map((f: SlackMessage) => `(attached: ${f.name ?? f.title ?? 'a file'})`);
    const text = [questionFromSlack(m.text ?? '', q.botUserId), ...files].filter(Boolean).join('\n');
    return { author, at: new Date(Number(m.ts) * 1000), text };
  }

  return {
    async read(client, q) {
      if (deps.maxMessages === 0) return [];
      let messages: SlackMessage[];
      try {
        messages = await fetchReplies(client, q);
      } catch (err) {
        const code = (err as { data?: { error?: string } }).data?.error;
        if (code === 'thread_not_found') return []; // the parent was deleted: nothing earlier to read
        if (code && NOT_ALLOWED.has(code)) {
          deps.logger.info(
            { code, channel: q.channel },
            'cannot read a thread: is the history scope granted?',
          );
          if (!firstTime(q.key)) return [];
          throw new ContextUnavailableError(WORDING.threadUnreadable, err);
        }
        deps.logger.warn({ err, channel: q.channel }, 'could not read a thread');
        throw new ContextUnavailableError(WORDING.threadReadFailed, err);
      }
      const written = messages
        .filter((m) => !m.subtype || WRITTEN.has(m.subtype))
        .filter((m) => !isStepsMessage(m))
        .sort((a, b) => compareTs(a.ts, b.ts));
      // The bot's last reply here is its last answer: it and what came before are in its memory.
      const lastOwn = q.whole ? -1 : written.findLastIndex((m) => isOwn(m, q) && m.ts !== q.threadTs);
      const unseen = written.slice(lastOwn + 1).slice(-deps.maxMessages);
      return Promise.all(unseen.map((m) => toContext(client, m, q)));
    },
    answered(key, answerTs) {
      lastAnswers.delete(key);
      lastAnswers.set(key, answerTs);
      if (lastAnswers.size > REMEMBERED_THREADS) lastAnswers.delete(lastAnswers.keys().next().value!);
    },
  };
}

function isOwn(m: SlackMessage, q: ThreadQuestion): boolean {
  return (
    (q.botUserId !== undefined && m.user === q.botUserId) || (q.botId !== undefined && m.bot_id === q.botId)
  );
}

/** Orders Slack timestamps (`seconds.micros`) exactly; as numbers they would round. */
function compareTs(a: string, b: string): number {
  const [as = '', af = ''] = a.split('.');
  const [bs = '', bf = ''] = b.split('.');
  const whole = as.padStart(12, '0').localeCompare(bs.padStart(12, '0'));
  return whole !== 0 ? whole : af.padEnd(6, '0').localeCompare(bf.padEnd(6, '0'));
}
