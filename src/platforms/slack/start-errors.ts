import { ConfigError } from '../../core/errors.js';

const REJECTED = new Set([
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
]);

/** What Slack's Web API client attaches to a failed call. */
interface SlackCallError {
  code?: string;
  data?: { error?: string };
  original?: { code?: string; cause?: { code?: string } };
}

/**
 * A start-up failure explained in terms of what to change: which token Slack rejected, or that its API
 * could not be reached at all. Anything else is passed on unchanged.
 */
export function explainStartError(
  err: unknown,
  which: 'SLACK_BOT_TOKEN' | 'SLACK_APP_TOKEN',
  apiUrl: string,
): unknown {
  const failure = err as SlackCallError;
  const slackError = failure?.data?.error;
  if (slackError && REJECTED.has(slackError)) {
    const where =
      which === 'SLACK_BOT_TOKEN'
        ? 'copy the Bot User OAuth Token (xoxb-…) again from OAuth & Permissions'
        : 'generate an app-level token (xapp-…) with the connections:write scope under Basic Information';
    return new ConfigError([`${which}: Slack rejected the token (${slackError}); ${where}.`]);
  }
  if (failure?.code === 'slack_webapi_request_error') {
    const cause = failure.original?.code ?? failure.original?.cause?.code;
    return new ConfigError([
      `SLACK_API_URL: the Slack API at ${new URL(apiUrl).host} could not be reached${cause ? ` (${cause})` : ''}.`,
    ]);
  }
  return err;
}
