import type { SignedIn } from '../asker.js';
import { type CookieOptions, clearCookie, cookie } from '../cookies.js';
import { newId } from '../identity.js';
import type { Sealer } from '../sealed.js';
import type { Pending } from './provider.js';

/** The signed-in session: opaque (sealed), HttpOnly, `SameSite=Lax` so it is set on the way back from the sign-in page. */
export const SESSION_COOKIE = 'tt_session';
/** A sign-in under way: its state, nonce and PKCE verifier, sealed, for ten minutes, sent only to `/auth`. */
export const PENDING_COOKIE = 'tt_signin';

/** How long a sign-in lasts before the page asks again. */
const SESSION_SECONDS = 7 * 24 * 3600;
const PENDING_SECONDS = 600;

/** Reads and writes the sign-in cookies; any replica sharing WEB_SESSION_SECRET reads what another wrote. */
export interface SessionCookies {
  read(cookies: ReadonlyMap<string, string>): SignedIn | undefined;
  /** A new session cookie for `user` (a fresh value at every sign-in). */
  issue(user: SignedIn): string;
  clear(): string;
  pending(cookies: ReadonlyMap<string, string>): Pending | undefined;
  issuePending(pending: Pending): string;
  clearPending(): string;
}

/** Session cookies sealed by `sealer`, set with `options` (Secure or not). */
export function createSessionCookies(sealer: Sealer, options: CookieOptions): SessionCookies {
  const session: CookieOptions = { ...options, sameSite: 'Lax', maxAgeSeconds: SESSION_SECONDS };
  const pending: CookieOptions = {
    ...options,
    sameSite: 'Lax',
    maxAgeSeconds: PENDING_SECONDS,
    path: '/auth',
  };
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    read(cookies) {
      const held = sealer.open(SESSION_COOKIE, cookies.get(SESSION_COOKIE));
      const principal = text(held?.p);
      const userId = text(held?.u);
      if (!principal || !userId) return undefined;
      return { principal, userId, name: text(held?.n) ?? userId };
    },
    issue: (user) =>
      cookie(
        SESSION_COOKIE,
        sealer.seal(
          SESSION_COOKIE,
          { p: user.principal, u: user.userId, n: user.name, sid: newId() },
          SESSION_SECONDS,
        ),
        session,
      ),
    clear: () => clearCookie(SESSION_COOKIE, session),
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
