import { randomBytes } from 'node:crypto';
import { type CookieOptions, cookie } from './cookies.js';
import type { Sealer } from './sealed.js';

/** The cookie naming the browser (sealed by the server): what a token or local user's limits are keyed by. */
export const BROWSER_COOKIE = 'tt_browser';
/** The cookie naming the browser's current conversation (sealed, bound to its owner): memory key `web:<chat>`. */
export const CHAT_COOKIE = 'tt_chat';

const YEAR_SECONDS = 31_536_000;

/** A fresh random ID, unguessable (128 bits). */
export function newId(): string {
  return randomBytes(16).toString('base64url');
}

/** An ID read from a cookie, and the cookie to set when it was issued just now. */
export interface Issued {
  id: string;
  setCookie?: string | undefined;
}

/**
 * Browser and chat IDs, minted by the server and sealed in their cookies: a cookie the server did not seal
 * (chosen, forged, altered, or another owner's chat) is replaced by a fresh ID, never trusted.
 */
export interface Identities {
  /** The request's browser ID. */
  browser(cookies: ReadonlyMap<string, string>): Issued;
  /** The request's current chat, if it belongs to `owner` (a principal); else a new one. */
  chat(cookies: ReadonlyMap<string, string>, owner: string): Issued;
  /** A new chat for `owner`: its cookie. */
  newChat(owner: string): string;
  /** The cookie making `chat` (checked to be `owner`'s) the current one. */
  openChat(owner: string, chat: string): string;
}

/** Identities sealed by `sealer`, their cookies set with `options`. */
export function createIdentities(sealer: Sealer, options: CookieOptions): Identities {
  const issue = (name: string, payload: Record<string, string>) =>
    cookie(name, sealer.seal(name, payload, YEAR_SECONDS), { ...options, maxAgeSeconds: YEAR_SECONDS });
  const newChat = (owner: string): Issued => {
    const id = newId();
    return { id, setCookie: issue(CHAT_COOKIE, { c: id, o: owner }) };
  };
  return {
    browser(cookies) {
      const held = sealer.open(BROWSER_COOKIE, cookies.get(BROWSER_COOKIE))?.b;
      if (typeof held === 'string') return { id: held };
      const id = newId();
      return { id, setCookie: issue(BROWSER_COOKIE, { b: id }) };
    },
    chat(cookies, owner) {
      const held = sealer.open(CHAT_COOKIE, cookies.get(CHAT_COOKIE));
      if (held && typeof held.c === 'string' && held.o === owner) return { id: held.c };
      return newChat(owner);
    },
    newChat: (owner) => newChat(owner).setCookie!,
    openChat: (owner, chat) => issue(CHAT_COOKIE, { c: chat, o: owner }),
  };
}

/** The memory key of a web conversation. */
export function chatKey(chat: string): string {
  return `web:${chat}`;
}

/** The chat ID of a web conversation's memory key. */
export function chatOfKey(key: string): string {
  return key.startsWith('web:') ? key.slice('web:'.length) : key;
}
