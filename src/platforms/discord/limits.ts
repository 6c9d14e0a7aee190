/** Longest message content Discord accepts. */
export const MESSAGE_LIMIT = 2000;

/** Longest thread name Discord accepts. */
export const THREAD_NAME_LIMIT = 100;

/** Model text pings nobody: no @everyone/@here, no roles, no users. */
export const NO_PINGS = { parse: [], repliedUser: false } as const;

/** The one notification the bot sends: its reply pings the asker. */
export const REPLY_PING = { parse: [], repliedUser: true } as const;

/** A thread name from the question: one line, at most {@link THREAD_NAME_LIMIT} characters, never empty. */
export function threadName(question: string): string {
  const line = question.replace(/\s+/g, ' ').trim();
  if (!line) return 'Reasoning';
  return line.length <= THREAD_NAME_LIMIT ? line : `${line.slice(0, THREAD_NAME_LIMIT - 1).trimEnd()}…`;
}
