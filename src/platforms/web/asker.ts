import type { Asker } from '../../core/governance/asker.js';
import { webPrincipal } from '../../core/governance/principal.js';

/**
 * The asker behind a browser that has not signed in: limits and budgets count per browser ID; the token is
 * the web chat's access control, so the allow lists (made of Discord and Slack people) do not apply.
 */
export function webAsker(browser: string): Asker {
  return {
    platform: 'web',
    userId: browser,
    principal: webPrincipal(browser),
    dm: true,
    platformGated: true,
  };
}
