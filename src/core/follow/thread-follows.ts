import type { Logger } from '../logger.js';
import type { ThreadFollowStore } from '../ports/thread-follow-store.js';

/** FOLLOW_THREADS and FOLLOW_IDLE. */
export interface FollowSettings {
  /** Whether channels follow threads unless `/settings follow` says otherwise. */
  FOLLOW_THREADS: boolean;
  /** Silence (ms) after which the bot stops following a thread. */
  FOLLOW_IDLE: number;
}

/** A person's message in a thread, as a platform read it. */
export interface ThreadMessage {
  /** The thread's conversation key. */
  key: string;
  /** The channel's settings key (`/settings follow`). */
  settingsKey: string;
  /** The writer's principal. */
  author: string;
  /** It mentions the bot: the platform answers it as any mention; it is seen here only for standing back. */
  mentionsBot: boolean;
  /** It mentions some other person (and not the bot): it is addressed to them. */
  mentionsOthers: boolean;
  /** A short thanks or ok (see `isAcknowledgement`): a reaction, not an answer. */
  acknowledgement: boolean;
}

/** What to do with a message in a thread: answer it as a question, react to it, or leave it. */
export type FollowVerdict = 'answer' | 'acknowledge' | 'ignore';

/** Threads the bot follows after answering there, and the manners of following. */
export interface ThreadFollows {
  /**
   * The bot answered `asker` where these threads are (the one asked in, the answer's, its steps'): their next
   * messages there need no mention. Never rejects: a store that fails is logged, and mentions still work.
   */
  answered(keys: readonly (string | undefined)[], asker: string): Promise<void>;
  /**
   * Decides about a person's message in a thread; another person speaking makes the bot stand back for good.
   * Never rejects: a store that fails leaves the message unanswered (and says so in the log).
   */
  consider(message: ThreadMessage): Promise<FollowVerdict>;
}

/** What thread following needs. */
export interface ThreadFollowsDeps {
  store: ThreadFollowStore;
  settings: FollowSettings;
  /** Whether the channel follows threads (its `/settings follow`, else FOLLOW_THREADS). */
  followsIn(settingsKey: string): Promise<boolean>;
  logger: Logger;
  now?: () => number;
}

/** How often idle threads are swept from the store, at most. */
const SWEEP_MS = 60 * 60_000;

/** Creates thread following over the store: one read per message in a thread, one write per answer. */
export function createThreadFollows(deps: ThreadFollowsDeps): ThreadFollows {
  const { store, logger } = deps;
  const now = deps.now ?? Date.now;
  const idle = deps.settings.FOLLOW_IDLE;
  let swept = 0;

  function sweep(at: number): void {
    if (at - swept < SWEEP_MS) return;
    swept = at;
    store
      .forgetFollowsBefore(at - idle)
      .catch((err: unknown) => logger.warn({ err }, 'could not forget idle threads'));
  }

  return {
    async answered(keys, asker) {
      const at = now();
      const threads = new Set(keys.filter((k): k is string => k !== undefined));
      await Promise.all(
        [...threads].map((key) =>
          store
            .followThread(key, asker, at, at - idle)
            .catch((err: unknown) => logger.warn({ err, key }, 'could not follow a thread')),
        ),
      );
      sweep(at);
    },
    async consider(message) {
      try {
        return await decide(message);
      } catch (err) {
        logger.warn({ err }, 'could not check whether a thread is followed');
        return 'ignore';
      }
    },
  };

  async function decide(message: ThreadMessage): Promise<FollowVerdict> {
    const thread = await store.followedThread(message.key);
    if (!thread || thread.lastAt < now() - idle) return 'ignore';
    if (thread.asker !== message.author) {
      if (!thread.stoodBack) await store.standBack(message.key);
      return 'ignore';
    }
    if (message.mentionsBot || thread.stoodBack || message.mentionsOthers) return 'ignore';
    if (!(await deps.followsIn(message.settingsKey))) return 'ignore';
    return message.acknowledgement ? 'acknowledge' : 'answer';
  }
}
