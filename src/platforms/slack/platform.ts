import type { PlatformEntry } from '../types.js';

/** Slack: on when SLACK_BOT_TOKEN is set; HTTP mode (no SLACK_APP_TOKEN) receives POST /slack/events. */
export const slackPlatform: PlatformEntry = {
  name: 'slack',
  enabled: (config) => Boolean(config.SLACK_BOT_TOKEN),
  needsHttp: (config) => !config.SLACK_APP_TOKEN,
  async create(deps) {
    const { createSlackAdapter } = await import('./create-slack-adapter.js');
    return createSlackAdapter(deps);
  },
  // A command's or action's response_url (hooks.slack.com/commands/T…/…/<secret>) lets anyone post for 30 minutes.
  secretPatterns: [/(\/(?:commands|actions)\/[A-Z0-9]+\/\d+\/)[A-Za-z0-9]{16,}/g],
};
