import type { Logger } from '../../core/logger.js';
import { slackErrorCode } from './streaming-support.js';

/**
 * Errors meaning a workspace has no agent sessions (not a passing failure): an unknown method, a scope or token
 * the app lacks, or the feature off (`feature_disabled`: "The agent tasks feature is not enabled for this
 * workspace", docs.slack.dev/reference/methods/agents.sessions.setStatus).
 */
const NO_SESSIONS = new Set([
  'unknown_method',
  'missing_scope',
  'not_allowed_token_type',
  'not_allowed',
  'feature_disabled',
]);

/** Which workspaces have Slack's agent sessions (`agents.sessions.*`); the others get `assistant.threads.*`. */
export interface SessionSupport {
  /** False once `team` refused the methods. */
  has(team: string): boolean;
  /** True (and logged once per workspace) when `err` says `team` has no agent sessions. */
  refused(team: string, err: unknown): boolean;
}

/** Agent sessions everywhere until a workspace refuses them. */
export function createSessionSupport(logger: Logger): SessionSupport {
  const without = new Set<string>();
  return {
    has: (team) => !without.has(team),
    refused(team, err) {
      const error = slackErrorCode(err);
      if (!error || !NO_SESSIONS.has(error)) return false;
      if (!without.has(team)) {
        without.add(team);
        logger.warn(
          { team, error },
          'this workspace has no Slack agent sessions (agents.sessions.*); showing the status with assistant.threads.* instead',
        );
      }
      return true;
    },
  };
}
