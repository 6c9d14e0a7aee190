import { randomBytes } from 'node:crypto';
import { cookie } from './cookies.js';

/** The cookie naming the browser: what limits, budgets and usage records are keyed by. */
export const BROWSER_COOKIE = 'tt_browser';
/** The cookie naming the browser's current conversation: its memory key is `web:<chat>`. */
export const CHAT_COOKIE = 'tt_chat';

/** A well-formed browser or chat ID (what we issue is 22 characters of base64url). */
const ID = /^[A-Za-z0-9_-]{6,64}$/;

/** Who a request comes from, and the cookies to set when an ID was issued just now. */
export interface Identity {
  browser: string;
  chat: string;
  setCookies: string[];
}

/** A fresh random ID, unguessable (128 bits). */
export function newId(): string {
  return randomBytes(16).toString('base64url');
}

/** The request's browser and chat IDs, issuing new ones where the cookies lack a valid one. */
export function identify(cookies: ReadonlyMap<string, string>): Identity {
  const setCookies: string[] = [];
  const idFrom = (name: string) => {
    const given = cookies.get(name);
    if (given !== undefined && ID.test(given)) return given;
    const id = newId();
    setCookies.push(cookie(name, id));
    return id;
  };
  return { browser: idFrom(BROWSER_COOKIE), chat: idFrom(CHAT_COOKIE), setCookies };
}

/** The memory key of a web conversation. */
export function chatKey(chat: string): string {
  return `web:${chat}`;
}
