import { cleanContent, DiscordAPIError, type Message, MessageType } from 'discord.js';
import { ContextUnavailableError } from '../../core/errors.js';
import { type ContextMessage, OWN_SPEAKER } from '../../core/input/types.js';
import type { Logger } from '../../core/logger.js';
import { createFirstTime } from '../shared/first-time.js';
import { WORDING } from '../shared/wording.js';
import { displayName } from './conversation.js';

/** Discord's codes for "you may not read this": Missing Access, Missing Permissions. */
const NOT_ALLOWED = new Set([50001, 50013]);
const UNKNOWN_MESSAGE = 10008;
/** Most messages one request returns. */
const PAGE_LIMIT = 100;
/** Threads whose bot answer is remembered (for `after`); the oldest is forgotten first. */
const REMEMBERED_THREADS = 5000;

/** Reads what a question on Discord follows: its thread's earlier messages and the messages it replies to. */
export interface MessageHistory {
  /** Oldest first; rejects with ContextUnavailableError (once per conversation) when the bot may not read it. */
  read(message: Message, key: string): Promise<ContextMessage[]>;
  /** Notes the bot's answer in a conversation: the next read there starts after it. */
  answered(key: string, messageId: string): void;
}

/**
 * Message history over the channel messages endpoint. In a thread or forum post: the messages since the
 * bot's last answer there (already in its memory), never its steps messages. Anywhere: a message the
 * question replies to, and that message's own reply chain. At most `maxMessages` in all, the newest.
 */
export function createMessageHistory(deps: { maxMessages: number; logger: Logger }): MessageHistory {
  const { maxMessages } = deps;
  const lastAnswers = new Map<string, string>();
  const firstTime = createFirstTime();

  async function threadMessages(message: Message, key: string): Promise<Message[]> {
    const channel = message.channel;
    if (!channel.isThread()) return [];
    let after = lastAnswers.get(key);
    const newest = { before: message.id, limit: Math.min(PAGE_LIMIT, maxMessages), cache: false };
    let fetched = await channel.messages.fetch(after ? { after, limit: PAGE_LIMIT, cache: false } : newest);
    // More since the last answer than one page holds: `after` gave the oldest of them; take the newest.
    if (after && fetched.size >= PAGE_LIMIT) {
      after = undefined;
      fetched = await channel.messages.fetch(newest);
    }
    const botId = message.client.user.id;
    const earlier = [...fetched.values()]
      .filter((m) => BigInt(m.id) < BigInt(message.id))
      .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
    // The bot's answers are replies; its last one here, and everything before it, is in its memory.
    const lastAnswer = earlier.findLastIndex((m) => m.author.id === botId && m.type === MessageType.Reply);
    // Its other messages there are steps or the rest of a long answer.
    const unseen = earlier.slice(lastAnswer + 1).filter((m) => m.author.id !== botId);
    if (after || lastAnswer >= 0) return unseen;
    // A first read also takes the message the thread was started from (e.g. the bot's answer whose
    // reasoning thread this is), which lives in the parent channel.
    const starter = await channel.fetchStarterMessage({ force: true }).catch(() => null);
    return starter && BigInt(starter.id) < BigInt(message.id) ? [starter, ...unseen] : unseen;
  }

  async function replyChain(message: Message): Promise<Message[]> {
    const chain: Message[] = [];
    let current = message;
    while (current.reference?.messageId && chain.length < maxMessages) {
      const { channelId, messageId } = current.reference;
      const channel =
        channelId === current.channelId ? current.channel : current.client.channels.cache.get(channelId);
      if (!channel?.isTextBased()) break;
      try {
        // Fetched, not taken from the cache, which may hold an answer as it was before its edits.
        current = await channel.messages.fetch({ message: messageId, force: true });
      } catch (err) {
        if (err instanceof DiscordAPIError && Number(err.code) === UNKNOWN_MESSAGE) break; // deleted
        throw err;
      }
      chain.push(current);
    }
    return chain;
  }

  function toContext(m: Message): ContextMessage {
    const own = m.author.id === m.client.user.id;
    const files = [...m.attachments.values()].map((a) => `(attached: ${a.name})`);
    const text = [cleanContent(m.content, m.channel), ...files].filter(Boolean).join('\n');
    return { author: own ? OWN_SPEAKER : displayName(m.member, m.author), at: m.createdAt, text };
  }

  return {
    async read(message, key) {
      if (maxMessages === 0 || (!message.channel.isThread() && !message.reference?.messageId)) return [];
      let found: Message[];
      try {
        found = [...(await threadMessages(message, key)), ...(await replyChain(message))];
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
        .map(toContext);
    },
    answered(key, messageId) {
      lastAnswers.delete(key);
      lastAnswers.set(key, messageId);
      if (lastAnswers.size > REMEMBERED_THREADS) lastAnswers.delete(lastAnswers.keys().next().value!);
    },
  };
}
