import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * True when the request carries `Authorization: Bearer <token>`. Both sides are hashed first, so the
 * comparison takes the same time whatever the length or the first wrong character.
 */
export function hasBearer(req: IncomingMessage, token: string): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '');
  if (!match) return false;
  return timingSafeEqual(digest(match[1]!), digest(token));
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
