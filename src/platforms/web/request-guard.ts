import type { IncomingMessage } from 'node:http';
import { isLoopback } from './loopback.js';

/** The host name a request was addressed to (the Host header without its port). */
function hostName(value: string): string {
  try {
    return new URL(`http://${value}`).hostname;
  } catch {
    return '';
  }
}

/**
 * Without a token, the chat is open to whoever reaches it, which must then be this machine: a request
 * addressed to any other name (a DNS-rebinding page, say) is refused.
 */
export function hostAllowed(req: IncomingMessage, tokenRequired: boolean): boolean {
  return tokenRequired || isLoopback(hostName(req.headers.host ?? ''));
}

/** A request from this page, not another site's (browsers send Origin on cross-origin requests). */
export function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}
