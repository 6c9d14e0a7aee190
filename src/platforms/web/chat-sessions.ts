import type { EventStream } from './event-stream.js';
import type { WebRun } from './web-run.js';

/** One browser conversation's live state: its latest run and the pages watching it. */
export interface ChatSession {
  readonly key: string;
  /** The run in progress, or the last one (kept so a page reconnecting after it ended sees how it ended). */
  run: WebRun | undefined;
  /** Stops the run in progress; undefined when none is. */
  stop: AbortController | undefined;
  readonly clients: Set<EventStream>;
}

/** Sends an event to every page watching `session`. */
export function broadcast(session: ChatSession, event: string, data: unknown): void {
  for (const client of session.clients) client.send(event, data);
}

/** The sessions of recent conversations, bounded: idle ones are forgotten oldest first. */
export interface ChatSessions {
  /** The session of `key`, created when new; marks it recently used. */
  get(key: string): ChatSession;
  /** Every session still held. */
  all(): IterableIterator<ChatSession>;
}

/** Pages watching a conversation at once (tabs); the oldest is disconnected past this. */
export const MAX_CLIENTS_PER_CHAT = 8;

/**
 * Holds at most `max` sessions (MAX_SESSIONS), beyond which the least recently used idle ones are dropped;
 * the one just asked for is kept, busy or not (it is about to be used).
 */
export function createChatSessions(max: number): ChatSessions {
  const sessions = new Map<string, ChatSession>();
  const busy = (s: ChatSession) => s.stop !== undefined || s.clients.size > 0;
  const evict = (keep: string) => {
    for (const session of sessions.values()) {
      if (sessions.size <= max) return;
      if (!busy(session) && session.key !== keep) sessions.delete(session.key);
    }
  };
  return {
    get(key) {
      let session = sessions.get(key);
      if (session) sessions.delete(key);
      session ??= { key, run: undefined, stop: undefined, clients: new Set() };
      sessions.set(key, session);
      evict(key);
      return session;
    },
    all: () => sessions.values(),
  };
}
