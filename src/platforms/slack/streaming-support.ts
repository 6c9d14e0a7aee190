import type { Logger } from '../../core/logger.js';

/**
 * Slack errors meaning a workspace will not take native streaming at all (not a passing failure): the
 * errors every Web API method documents for an unknown method, a scope or token the app lacks.
 */
const WORKSPACE_REFUSES = new Set(['unknown_method', 'missing_scope', 'not_allowed_token_type']);
/** chat.startStream's documented error for a kind of conversation streams cannot go to (chat.startStream.json). */
const CHANNEL_TYPE_REFUSED = 'channel_type_not_supported';

/** The Slack error code a failed Web API call carries, if any. */
export function slackErrorCode(err: unknown): string | undefined {
  return (err as { data?: { error?: unknown } })?.data?.error?.toString();
}

/** True when `err` says the workspace (or this kind of conversation) does not take the streaming methods. */
export function isStreamingUnsupported(err: unknown): boolean {
  const code = slackErrorCode(err);
  return code !== undefined && (WORKSPACE_REFUSES.has(code) || code === CHANNEL_TYPE_REFUSED);
}

/**
 * The kind of conversation, as events name it (`channel_type`: `channel`, `group`, `im`, `mpim`), or from
 * its id when the event does not say (`app_mention` events do not): D… a DM, G… a private one, else a channel.
 */
export function channelType(channel: string, declared?: string): string {
  if (declared) return declared;
  if (channel.startsWith('D')) return 'im';
  if (channel.startsWith('G')) return 'group';
  return 'channel';
}

/** Which workspaces and kinds of conversation answer natively; a refusal falls back to edits for good. */
export interface StreamingSupport {
  /** Whether runs in `team`, in a conversation of `type`, should stream natively. */
  native(team: string, type: string): boolean;
  /** Records that `team` refused the streaming methods (or refused them for `type`); logs it once. */
  refused(team: string, type: string, err: unknown): void;
}

/** Native streaming unless SLACK_STREAMING=edit, or until a workspace refuses it. */
export function createStreamingSupport(mode: 'native' | 'edit', logger: Logger): StreamingSupport {
  const refused = new Set<string>();
  return {
    native: (team, type) => mode === 'native' && !refused.has(team) && !refused.has(`${team}:${type}`),
    refused(team, type, err) {
      const error = slackErrorCode(err);
      const byType = error === CHANNEL_TYPE_REFUSED;
      const key = byType ? `${team}:${type}` : team;
      if (refused.has(key)) return;
      refused.add(key);
      logger.warn(
        { team, error, ...(byType ? { channelType: type } : {}) },
        byType
          ? 'this workspace refuses native streaming in this kind of conversation; answering there with edited messages instead'
          : 'this workspace refuses native streaming; answering with edited messages instead',
      );
    },
  };
}
