import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Config } from '../../../config.js';
import { listNames } from '../../../core/governance/principal.js';
import type { WebSessionStore } from '../../../core/ports/web-session-store.js';
import { hasBearer } from '../../../server/bearer.js';
import { createTokenGate, type TokenGate } from '../access-token.js';
import { readCookies } from '../cookies.js';
import { newId } from '../identity.js';
import { signInReturningTo } from '../sign-in/routes.js';
import type { SessionCookies } from '../sign-in/session.js';
import { outlived, sessionRowId, touched, type WebSessions } from '../sign-in/web-sessions.js';

/** The cookie an ADMIN_TOKEN login earns: a sealed random session ID, fresh at every login. */
export const ADMIN_COOKIE = 'tt_admin';
/** Who an ADMIN_TOKEN login is, in the session store. */
export const ADMIN_PRINCIPAL = 'admin:token';
/** How long an admin login lasts. */
const ADMIN_SESSION_MS = 12 * 3600_000;

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
  check(req: IncomingMessage): Promise<AdminAccess>;
  /** With ADMIN_TOKEN and no sign-in: checks a typed token in constant time; a new session's cookie when right. */
  login(typed: string): Promise<string | undefined>;
  /** Ends the request's admin login: the cookie that clears it. */
  logout(req: IncomingMessage): Promise<string>;
  /** Whether logging in with a token is how admins get in here. */
  readonly byToken: boolean;
}

/** What the gate checks with. */
export interface AdminGateDeps {
  /** Signed-in sessions (WEB_AUTH=slack|discord); without them, ADMIN_TOKEN logins. */
  signedIn?: WebSessions | undefined;
  store: WebSessionStore;
  cookies: SessionCookies;
  idleMs: number;
  now: () => number;
}

/**
 * The admin gate. With sign-in (WEB_AUTH=slack|discord) only a signed-in person whose principal is in
 * ADMIN_USERS gets in, and ADMIN_TOKEN is not accepted; without it only ADMIN_TOKEN does (as a bearer token
 * or the session a login starts, ended by logout, after 12 hours, or when ADMIN_TOKEN changes). Anonymous
 * and WEB_CHAT_TOKEN visitors never do.
 */
export function createAdminGate(config: Config, deps: AdminGateDeps): AdminGate {
  const { signedIn, store, cookies, now } = deps;
  const token: TokenGate | undefined =
    !signedIn && config.ADMIN_TOKEN ? createTokenGate(config.ADMIN_TOKEN) : undefined;
  // Sessions remember which ADMIN_TOKEN they were started with: changing it ends them all.
  const fingerprint = config.ADMIN_TOKEN
    ? createHmac('sha256', config.ADMIN_TOKEN).update('thinkthread admin session').digest('base64url')
    : '';
  const seconds = ADMIN_SESSION_MS / 1000;

  const tokenSession = async (req: IncomingMessage) => {
    const id = cookies.sessionId(readCookies(req), ADMIN_COOKIE);
    if (!id) return false;
    const row = await store.webSession(sessionRowId(id));
    if (!row || row.principal !== ADMIN_PRINCIPAL) return false;
    const at = now();
    if (row.userId !== fingerprint || outlived(row, { idleMs: deps.idleMs, maxMs: ADMIN_SESSION_MS }, at)) {
      await store.deleteWebSession(row.id);
      return false;
    }
    await touched(store, row, at);
    return true;
  };

  return {
    byToken: token !== undefined,
    async check(req) {
      if (signedIn) {
        const user = (await signedIn.resolve(readCookies(req)))?.user;
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
      if (hasBearer(req, config.ADMIN_TOKEN) || (await tokenSession(req))) return { ok: true, who: 'admin' };
      return { ok: false, status: 401, auth: 'token' };
    },
    async login(typed) {
      if (!token?.check(typed)) return undefined;
      const id = newId();
      const at = now();
      await store.createWebSession({
        id: sessionRowId(id),
        principal: ADMIN_PRINCIPAL,
        userId: fingerprint,
        name: 'admin',
        roles: [],
        createdAt: at,
        lastSeen: at,
        checkedAt: at,
        address: '',
        userAgent: '',
      });
      return cookies.issue(id, seconds, ADMIN_COOKIE, 'Strict');
    },
    async logout(req) {
      const id = cookies.sessionId(readCookies(req), ADMIN_COOKIE);
      if (id) await store.deleteWebSession(sessionRowId(id));
      return cookies.clear(ADMIN_COOKIE, 'Strict');
    },
  };
}
