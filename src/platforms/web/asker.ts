import type { Asker } from '../../core/governance/asker.js';

/**
 * The asker behind a browser: limits and budgets count per browser ID; the token is the web chat's access
 * control, so the allow lists (made of Discord and Slack IDs) do not apply.
 */
export function webAsker(browser: string): Asker {
  return { platform: 'web', userId: browser, dm: true, platformGated: true };
}
