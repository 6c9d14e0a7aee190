import {
  type Client,
  ComponentType,
  cleanContent,
  DiscordAPIError,
  type Message,
  MessageFlags,
  MessageReferenceType,
  MessageType,
} from 'discord.js';
import { ContextUnavailableError } from '../../core/errors.js';
import { type ContextMessage, OWN_SPEAKER } from '../../core/input/types.js';
import type { Logger } from '../../core/logger.js';
import { createFirstTime } from '../shared/first-time.js';
import { WORDING } from '../shared/wording.js';
import { displayName } from './conversation.js';
import { forwardedOf } from './forwarded.js';

/** Discord's codes for "you may not read this": Missing Access, Missing Permissions. */
const NOT_ALLOWED = new Set([50001, 50013]);
const UNKNOWN_MESSAGE = 10008;
/** Most messages one request returns. */
const PAGE_LIMIT = 100;
/** Threads whose bot answer is remembered (for `after`); the oldest is forgotten first. */
const REMEMBERED_THREADS = 5000;

/**
 * Where a question was asked: a message, or a slash command (whose interaction id, a snowflake, orders it
 * among the channel's messages; it replies to nothing).
 */
export interface AskedAt {
  id: string;
  channel: Message['channel'];
  client: Client<true>;
  reference?: Message['reference'] | undefined;
}

/** Reads what a question on Discord follows: its thread's earlier messages and the messages it replies to. */
export interface MessageHistory {
  /** Oldest first; rejects with ContextUnavailableError (once per conversation) when the bot may not read it. */
  read(at: AskedAt, key: string): Promise<ContextMessage[]>;
  /** Notes the bot's answer in a conversation (its message, or the command it answered): the next read there starts after it. */
  answered(key: string, id: string): void;
}

/** The bot's answers: replies to mentions, and responses to `/ask` (with their follow-ups). */
const ANSWER_TYPES: ReadonlySet<MessageType> = new Set([MessageType.Reply, MessageType.ChatInputCommand]);

/**
 * Message history over the channel messages endpoint. In a thread or forum post: the messages since the
 * bot's last answer there (already in its memory), never its steps messages. Anywhere: a message the
 * question replies to, and that message's own reply chain. At most `maxMessages` in all, the newest.
 */
export function createMessageHistory(deps: { maxMessages: number; logger: Logger }): MessageHistory {
  const { maxMessages } = deps;
  const lastAnswers = new Map<string, string>();
  const firstTime = createFirstTime();

  async function threadMessages(at: AskedAt, key: string): Promise<Message[]> {
    const channel = at.channel;
    if (!channel.isThread()) return [];
    let after = lastAnswers.get(key);
    const newest = { before: at.id, limit: Math.min(PAGE_LIMIT, maxMessages), cache: false };
    let fetched = await channel.messages.fetch(after ? { after, limit: PAGE_LIMIT, cache: false } : newest);
    // More since the last answer than one page holds: `after` gave the oldest of them; take the newest.
    if (after && fetched.size >= PAGE_LIMIT) {
      after = undefined;
      fetched = await channel.messages.fetch(newest);
    }
    const botId = at.client.user.id;
    const earlier = [...fetched.values()]
      .filter((m) => BigInt(m.id) < BigInt(at.id))
      .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
    // Its last answer here, and everything before it, is in its memory.
    const lastAnswer = earlier.findLastIndex((m) => m.author.id === botId && ANSWER_TYPES.has(m.type));
    // Its other messages there are steps or the rest of a long answer.
    const unseen = earlier.slice(lastAnswer + 1).filter((m) => m.author.id !== botId);
    if (after || lastAnswer >= 0) return unseen;
    // A first read also takes the message the thread was started from (e.g. the bot's answer whose
    // reasoning thread this is), which lives in the parent channel.
    const starter = await channel.fetchStarterMessage({ force: true }).catch(() => null);
    return starter && BigInt(starter.id) < BigInt(at.id) ? [starter, ...unseen] : unseen;
  }

  async function replyChain(at: AskedAt): Promise<Message[]> {
    const chain: Message[] = [];
    let current: AskedAt = at;
    for (;;) {
      const reference = current.reference;
      const messageId = reference?.messageId;
      // A forward points at the original, which may be out of reach: its snapshot is what was forwarded.
      const forward = reference?.type === MessageReferenceType.Forward;
      if (!reference || !messageId || forward || chain.length >= maxMessages) break;
      const { channelId } = reference;
      const channel =
        channelId === current.channel.id ? current.channel : current.client.channels.cache.get(channelId);
      if (!channel?.isTextBased()) break;
      let message: Message;
      try {
        // Fetched, not taken from the cache, which may hold an answer as it was before its edits.
        message = await channel.messages.fetch({ message: messageId, force: true });
      } catch (err) {
        if (err instanceof DiscordAPIError && Number(err.code) === UNKNOWN_MESSAGE) break; // deleted
        throw err;
      }
      chain.push(message);
      current = message;
    }
    return chain;
  }

  function toContext(m: Message, source: ContextMessage['source']): ContextMessage {
    const forwarded = forwardedOf(m);
    if (forwarded) return forwarded.context;
    const own = m.author.id === m.client.user.id;
    const files = [...m.attachments.values()].map((a) => `(attached: ${a.name})`);
    const text = [cleanContent(m.content || cardText(m), m.channel), ...files].filter(Boolean).join('\n');
    return { author: own ? OWN_SPEAKER : displayName(m.member, m.author), at: m.createdAt, text, source };
  }

  return {
    async read(at, key) {
      if (maxMessages === 0 || (!at.channel.isThread() && !at.reference?.messageId)) return [];
      let found: Message[];
      const replies = new Set<string>();
      try {
        const thread = await threadMessages(at, key);
        const chain = await replyChain(at);
        for (const m of chain) replies.add(m.id);
        found = [...thread, ...chain];
      } catch (err) {
        if (err instanceof DiscordAPIError && (NOT_ALLOWED.has(Number(err.code)) || err.status === 403)) {
          deps.logger.info(
            { code: err.code },
            'cannot read earlier messages: is Read Message History granted?',
          );
          if (!firstTime(key)) return [];
          throw new ContextUnavailableError(WORDING.threadUnreadable, err);
        }
        deps.logger.warn({ err }, 'could not read earlier messages');
        throw new ContextUnavailableError(WORDING.threadReadFailed, err);
      }
      const byId = new Map(found.map((m) => [m.id, m]));
      return [...byId.values()]
        .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1))
        .slice(-maxMessages)
        .map((m) => toContext(m, replies.has(m.id) ? 'reply' : 'thread'));
    },
    answered(key, id) {
      lastAnswers.delete(key);
      lastAnswers.set(key, id);
      if (lastAnswers.size > REMEMBERED_THREADS) lastAnswers.delete(lastAnswers.keys().next().value!);
    },
  };
}

/** A components v2 message's text (a steps or approval card): its text displays, one per line; else ''. */
function cardText(m: Message): string {
  if (!m.flags.has(MessageFlags.IsComponentsV2)) return '';
  type Part = { type: number; content?: string; components?: Part[] };
  const walk = (parts: Part[]): string[] =>
    parts.flatMap((p) => [
      ...(p.type === ComponentType.TextDisplay && p.content ? [p.content] : []),
      ...walk(p.components ?? []),
    ]);
  return walk(m.components.map((c) => c.toJSON() as Part)).join('\n');
}
