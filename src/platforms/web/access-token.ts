import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** The cookie a correct WEB_CHAT_TOKEN earns. */
export const AUTH_COOKIE = 'tt_auth';

/** WEB_CHAT_TOKEN: asked for once, then remembered in a cookie that proves it without holding it. */
export interface TokenGate {
  /** Whether the page must ask for a token at all. */
  readonly required: boolean;
  /** Whether `cookieValue` (the request's AUTH_COOKIE) proves the token. */
  admits(cookieValue: string | undefined): boolean;
  /** Checks a typed token in constant time; returns the cookie value to set when it is right. */
  check(typed: string): string | undefined;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Constant-time comparison of two strings of any lengths. */
function same(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

/** The gate for `token`; with no token, every request is let in. */
export function createTokenGate(token: string | undefined): TokenGate {
  if (!token) return { required: false, admits: () => true, check: () => undefined };
  // A keyed hash of the token: the cookie proves the token was typed, and a leaked cookie does not reveal it.
  const proof = createHmac('sha256', token).update('thinkthread web chat').digest('base64url');
  return {
    required: true,
    admits: (cookieValue) => cookieValue !== undefined && same(cookieValue, proof),
    check: (typed) => (same(typed, token) ? proof : undefined),
  };
}
