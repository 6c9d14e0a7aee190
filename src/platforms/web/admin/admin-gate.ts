import type { IncomingMessage } from 'node:http';
import type { Config } from '../../../config.js';
import { listNames } from '../../../core/governance/principal.js';
import type { RunLogStore } from '../../../core/ports/run-log-store.js';
import { hasBearer } from '../../../server/bearer.js';
import { createTokenGate, type TokenGate } from '../access-token.js';
import { readCookies } from '../cookies.js';
import { signInReturningTo } from '../sign-in/routes.js';
import type { SessionCookies } from '../sign-in/session.js';

/** The cookie a correct ADMIN_TOKEN earns (a keyed hash of it, never the token itself). */
export const ADMIN_COOKIE = 'tt_admin';

/** Who may see the admin page, as the page is told when it may not. */
export type AdminAccess =
  | { ok: true; who: string }
  /** Sign in first (WEB_AUTH=slack|discord), or give ADMIN_TOKEN (no sign-in configured). */
  | { ok: false; status: 401; auth: 'sign-in'; signIn: string }
  | { ok: false; status: 401; auth: 'token' }
  /** Signed in, but not in ADMIN_USERS. */
  | { ok: false; status: 403; auth: 'sign-in'; error: string }
  /** Neither sign-in nor ADMIN_TOKEN is configured: there is no admin page. */
  | { ok: false; status: 404; error: string };

/** Decides who is an admin of the web server: signed-in ADMIN_USERS, or (without sign-in) ADMIN_TOKEN. */
export interface AdminGate {
  check(req: IncomingMessage): AdminAccess;
  /** With ADMIN_TOKEN and no sign-in: checks a typed token in constant time; the cookie value when right. */
  login(typed: string): string | undefined;
  /** Whether logging in with a token is how admins get in here. */
  readonly byToken: boolean;
}

/**
 * The admin gate. With sign-in (WEB_AUTH=slack|discord) only a signed-in person whose principal is in
 * ADMIN_USERS gets in, and ADMIN_TOKEN is not accepted; without it only ADMIN_TOKEN does (as a bearer token
 * or the cookie a login earns). Anonymous and WEB_CHAT_TOKEN visitors never do.
 */
export function createAdminGate(config: Config, sessions: SessionCookies | undefined): AdminGate {
  const signIn = (config.WEB_AUTH === 'slack' || config.WEB_AUTH === 'discord') && sessions !== undefined;
  const token: TokenGate | undefined =
    !signIn && config.ADMIN_TOKEN ? createTokenGate(config.ADMIN_TOKEN) : undefined;
  return {
    byToken: token !== undefined,
    check(req) {
      if (signIn) {
        const user = sessions.read(readCookies(req));
        if (!user) return { ok: false, status: 401, auth: 'sign-in', signIn: signInReturningTo('/admin') };
        if (!listNames(config.ADMIN_USERS, user.principal))
          return {
            ok: false,
            status: 403,
            auth: 'sign-in',
            error: 'Only admins (ADMIN_USERS) can see this page.',
          };
        return { ok: true, who: user.name };
      }
      if (!token || !config.ADMIN_TOKEN)
        return {
          ok: false,
          status: 404,
          error: 'The admin page is off: set ADMIN_TOKEN, or sign-in (WEB_AUTH).',
        };
      if (hasBearer(req, config.ADMIN_TOKEN) || token.admits(readCookies(req).get(ADMIN_COOKIE)))
        return { ok: true, who: 'admin' };
      return { ok: false, status: 401, auth: 'token' };
    },
    login: (typed) => token?.check(typed),
  };
}

/** The bot's store as the admin page reads it, when the store handed to the web chat is the whole one. */
export function runLogStoreOf(store: unknown): RunLogStore | undefined {
  const candidate = store as Partial<RunLogStore> | undefined;
  return typeof candidate?.listRuns === 'function' &&
    typeof candidate.adminStats === 'function' &&
    typeof candidate.runDetail === 'function'
    ? (candidate as RunLogStore)
    : undefined;
}
