import type { Message } from 'discord.js';

/**
 * How long a lone forward in a DM waits for its comment. Discord's apps send a forward's optional comment
 * as a message of its own right after the forward (it cannot go with a forward into a slowmode channel:
 * discord-api-docs issue #7667), so the two arrive as two MESSAGE_CREATE events a round trip apart.
 */
export const FORWARD_COMMENT_MS = 2_000;

/** Pairs a forward in a DM with the comment its author sends right after it. */
export interface ForwardComments {
  /**
   * Holds a lone forward (no text of its own) for up to the wait: resolves true when it is to be answered
   * alone (no comment came, another forward came, or the bot is stopping), false when its comment took it.
   * Must be called before the handler's first await, so that the comment, handled next, finds it.
   */
  hold(forward: Message, signal: AbortSignal): Promise<boolean>;
  /** The forward held for `message`'s author in its channel, now `message`'s to carry as context; or undefined. */
  take(message: Message): Message | undefined;
}

/** Forward-comment pairing with a wait of `waitMs` (FORWARD_COMMENT_MS; tests shorten it). */
export function createForwardComments(waitMs = FORWARD_COMMENT_MS): ForwardComments {
  const held = new Map<string, { forward: Message; release: (alone: boolean) => void }>();
  const keyOf = (m: Message) => `${m.channelId}:${m.author.id}`;
  return {
    hold(forward, signal) {
      const key = keyOf(forward);
      held.get(key)?.release(true);
      if (signal.aborted) return Promise.resolve(true);
      return new Promise((resolve) => {
        const release = (alone: boolean) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          if (held.get(key)?.forward === forward) held.delete(key);
          resolve(alone);
        };
        const onAbort = () => release(true);
        const timer = setTimeout(onAbort, waitMs);
        signal.addEventListener('abort', onAbort, { once: true });
        held.set(key, { forward, release });
      });
    },
    take(message) {
      const entry = held.get(keyOf(message));
      entry?.release(false);
      return entry?.forward;
    },
  };
}
