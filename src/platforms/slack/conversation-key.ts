/**
 * The memory a Slack question belongs to.
 * - `slack:<team>:<channel>` for a channel or DM: everyone in it shares one conversation, and
 *   `/reset` and `/memory` (which Slack only runs at channel level) act on it.
 * - `slack:<team>:<channel>:<thread_ts>` for a question asked inside a thread: a thread is its own
 *   conversation, like a Discord thread, so parallel threads do not mix and run side by side.
 */
export function conversationKey(team: string, channel: string, threadTs?: string): string {
  return threadTs ? `slack:${team}:${channel}:${threadTs}` : `slack:${team}:${channel}`;
}
