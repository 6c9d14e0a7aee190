import type { Asker } from '../../core/governance/asker.js';
import { webPrincipal } from '../../core/governance/principal.js';

/**
 * The asker behind a browser that has not signed in (token or local users): limits and budgets count per
 * browser ID and, when `address` is given, per client address too, so a fresh cookie is not a fresh
 * allowance. The token is the web chat's access control, so the allow lists (made of Discord and Slack
 * people) do not apply; such an asker is never an admin.
 */
export function webAsker(browser: string, address?: string): Asker {
  return {
    platform: 'web',
    userId: browser,
    principal: webPrincipal(browser),
    ...(address ? { origin: `addr:${address}` } : {}),
    dm: true,
    platformGated: true,
  };
}

/** Someone signed in with Slack or Discord: in the browser they are that principal, with its rights and limits. */
export interface SignedIn {
  /** `slack:T…:U…` or `discord:…` */
  principal: string;
  /** Their Slack or Discord user ID. */
  userId: string;
  /** The name shown on the page. */
  name: string;
  /** Their roles in the deployment's Discord server (for ALLOW_ROLES), as the last membership check found. */
  roles?: readonly string[] | undefined;
}

/** The asker of a signed-in user: the same person as in the chat, so the allow lists apply as they do there. */
export function signedInAsker(user: SignedIn): Asker {
  return {
    platform: 'web',
    userId: user.userId,
    principal: user.principal,
    dm: true,
    ...(user.roles && user.roles.length > 0 ? { roles: [...user.roles] } : {}),
  };
}
