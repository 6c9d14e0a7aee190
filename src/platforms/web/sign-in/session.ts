import { type CookieOptions, clearCookie, cookie } from '../cookies.js';
import type { Sealer } from '../sealed.js';
import type { Pending } from './provider.js';

/** The signed-in session: opaque (sealed), HttpOnly, `SameSite=Lax` so it is set on the way back from the sign-in page. */
export const SESSION_COOKIE = 'tt_session';
/** A sign-in under way: its state, nonce and PKCE verifier, sealed, for ten minutes, sent only to `/auth`. */
export const PENDING_COOKIE = 'tt_signin';

const PENDING_SECONDS = 600;

/**
 * Reads and writes the sign-in cookies. A session cookie carries only a random session ID, sealed (any
 * replica sharing WEB_SESSION_SECRET opens it); who it stands for is kept in the store, so ending the
 * session there makes the cookie worthless.
 */
export interface SessionCookies {
  /** The session ID the request's cookie `name` carries, if it is one this server sealed. */
  sessionId(cookies: ReadonlyMap<string, string>, name?: string): string | undefined;
  /** A cookie `name` carrying session `id` for `seconds` (`Strict` for cookies only this site's pages need). */
  issue(id: string, seconds: number, name?: string, sameSite?: 'Lax' | 'Strict'): string;
  clear(name?: string, sameSite?: 'Lax' | 'Strict'): string;
  pending(cookies: ReadonlyMap<string, string>): Pending | undefined;
  issuePending(pending: Pending): string;
  clearPending(): string;
}

/** Session cookies sealed by `sealer`, set with `options` (Secure or not). */
export function createSessionCookies(sealer: Sealer, options: CookieOptions): SessionCookies {
  const session: CookieOptions = { ...options, sameSite: 'Lax' };
  const pending: CookieOptions = {
    ...options,
    sameSite: 'Lax',
    maxAgeSeconds: PENDING_SECONDS,
    path: '/auth',
  };
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    sessionId: (cookies, name = SESSION_COOKIE) => text(sealer.open(name, cookies.get(name))?.sid),
    issue: (id, seconds, name = SESSION_COOKIE, sameSite = 'Lax') =>
      cookie(name, sealer.seal(name, { sid: id }, seconds), { ...session, sameSite, maxAgeSeconds: seconds }),
    clear: (name = SESSION_COOKIE, sameSite = 'Lax') => clearCookie(name, { ...session, sameSite }),
    pending(cookies) {
      const held = sealer.open(PENDING_COOKIE, cookies.get(PENDING_COOKIE));
      const state = text(held?.s);
      const verifier = text(held?.v);
      if (!state || !verifier) return undefined;
      return { state, verifier, nonce: text(held?.n), returnTo: text(held?.r) };
    },
    issuePending: (p) =>
      cookie(
        PENDING_COOKIE,
        sealer.seal(
          PENDING_COOKIE,
          {
            s: p.state,
            v: p.verifier,
            ...(p.nonce ? { n: p.nonce } : {}),
            ...(p.returnTo ? { r: p.returnTo } : {}),
          },
          PENDING_SECONDS,
        ),
        pending,
      ),
    clearPending: () => clearCookie(PENDING_COOKIE, pending),
  };
}
