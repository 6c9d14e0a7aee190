import type { IncomingMessage } from 'node:http';

/** The cookies a request carries, by name (the first of duplicates wins). */
export function readCookies(req: IncomingMessage): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    if (!cookies.has(name)) cookies.set(name, part.slice(at + 1).trim());
  }
  return cookies;
}

/** How a cookie is set; by default for the whole site, a year, and sent only by this site's own pages. */
export interface CookieOptions {
  /** `Secure`: only over HTTPS (see {@link secureCookies}). */
  secure?: boolean;
  /** `Lax` for cookies that must arrive on the top-level navigation back from a sign-in page. */
  sameSite?: 'Strict' | 'Lax';
  maxAgeSeconds?: number;
  path?: string;
}

/** A `Set-Cookie` value the page's scripts cannot read. */
export function cookie(name: string, value: string, options: CookieOptions = {}): string {
  const { secure = false, sameSite = 'Strict', maxAgeSeconds = 31_536_000, path = '/' } = options;
  return `${name}=${value}; Path=${path}; HttpOnly; SameSite=${sameSite}; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}

/** A `Set-Cookie` value that removes `name` (set with the same path). */
export function clearCookie(name: string, options: CookieOptions = {}): string {
  return cookie(name, '', { ...options, maxAgeSeconds: 0 });
}

/**
 * Whether cookies are marked Secure: when the public address is https, or (without one) when the chat is
 * served beyond loopback, where it must sit behind TLS. Plain http on this machine keeps them usable.
 */
export function secureCookies(publicUrl: string | undefined, hostIsLoopback: boolean): boolean {
  if (publicUrl) return new URL(publicUrl).protocol === 'https:';
  return !hostIsLoopback;
}
