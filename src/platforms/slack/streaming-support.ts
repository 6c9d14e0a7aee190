import type { Logger } from '../../core/logger.js';

/** Slack errors meaning a workspace will not take native streaming at all (not a passing failure). */
const UNSUPPORTED = new Set([
  'unknown_method',
  'not_allowed',
  'missing_scope',
  'not_allowed_token_type',
  'method_not_supported_for_channel_type',
]);

/** The Slack error code a failed Web API call carries, if any. */
export function slackErrorCode(err: unknown): string | undefined {
  return (err as { data?: { error?: unknown } })?.data?.error?.toString();
}

/** True when `err` says the workspace does not offer (or lets this app use) the streaming methods. */
export function isStreamingUnsupported(err: unknown): boolean {
  const code = slackErrorCode(err);
  return code !== undefined && UNSUPPORTED.has(code);
}

/** Which workspaces answer natively; one that refuses the streaming methods falls back to edits for good. */
export interface StreamingSupport {
  /** Whether runs in `team` should stream natively. */
  native(team: string): boolean;
  /** Records that `team` refused the streaming methods; logs it once per team. */
  refused(team: string, err: unknown): void;
}

/** Native streaming unless SLACK_STREAMING=edit, or until a workspace refuses it. */
export function createStreamingSupport(mode: 'native' | 'edit', logger: Logger): StreamingSupport {
  const refused = new Set<string>();
  return {
    native: (team) => mode === 'native' && !refused.has(team),
    refused(team, err) {
      if (refused.has(team)) return;
      refused.add(team);
      logger.warn(
        { team, error: slackErrorCode(err) },
        'this workspace refuses native streaming; answering with edited messages instead',
      );
    },
  };
}
