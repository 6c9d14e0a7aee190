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

/** A `Set-Cookie` value the page's scripts cannot read and other sites never send; kept for a year. */
export function cookie(name: string, value: string): string {
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000`;
}
