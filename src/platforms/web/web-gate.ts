import type { WebAuth } from '../../config.js';
import type { Asker } from '../../core/governance/asker.js';
import { AUTH_COOKIE, type TokenGate } from './access-token.js';
import { signedInAsker, webAsker } from './asker.js';
import type { Identities } from './identity.js';
import type { SignInProvider } from './sign-in/provider.js';
import { SIGN_IN_PATH } from './sign-in/routes.js';
import type { WebSessions } from './sign-in/web-sessions.js';

/** Who a request comes from, once let in. */
export interface Visitor {
  asker: Asker;
  /** The current conversation's ID (memory key `web:<chat>`). */
  chat: string;
  /** Whom new chats belong to: the principal. */
  owner: string;
  /** The signed-in name, shown on the page. */
  name?: string | undefined;
}

/** What a refused request is told: enough for the page to show the token prompt or the sign-in button. */
export type Challenge = { auth: 'token' } | { auth: 'slack' | 'discord'; signIn: string; label: string };

/** Lets requests in by WEB_AUTH: a signed-in session, the token's cookie, or (loopback only) anyone. */
export interface WebGate {
  readonly mode: WebAuth;
  /** The request's visitor, or undefined when it must sign in (or give the token) first. */
  admit(
    cookies: ReadonlyMap<string, string>,
    address: string,
    setCookies: string[],
  ): Promise<Visitor | undefined>;
  /** The 401 body. */
  readonly challenge: Challenge;
}

/** What {@link createWebGate} checks with. */
export interface WebGateDeps {
  mode: WebAuth;
  identities: Identities;
  token: TokenGate;
  /** Signed-in sessions (WEB_AUTH=slack|discord). */
  signedIn?: WebSessions | undefined;
  provider?: SignInProvider | undefined;
}

/** The gate of `deps.mode`. */
export function createWebGate(deps: WebGateDeps): WebGate {
  const { mode, identities } = deps;
  const challenge: Challenge =
    deps.provider && (mode === 'slack' || mode === 'discord')
      ? { auth: mode, signIn: SIGN_IN_PATH, label: deps.provider.label }
      : { auth: 'token' };
  const enter = (
    cookies: ReadonlyMap<string, string>,
    asker: Asker,
    setCookies: string[],
    name?: string,
  ): Visitor => {
    const chat = identities.chat(cookies, asker.principal);
    if (chat.setCookie) setCookies.push(chat.setCookie);
    return { asker, chat: chat.id, owner: asker.principal, name };
  };
  const browser = (cookies: ReadonlyMap<string, string>, setCookies: string[]) => {
    const issued = identities.browser(cookies);
    if (issued.setCookie) setCookies.push(issued.setCookie);
    return issued.id;
  };
  return {
    mode,
    challenge,
    async admit(cookies, address, setCookies) {
      switch (mode) {
        case 'none':
          return enter(cookies, webAsker(browser(cookies, setCookies)), setCookies);
        case 'token': {
          const id = browser(cookies, setCookies);
          if (!deps.token.admits(cookies.get(AUTH_COOKIE))) return undefined;
          return enter(cookies, webAsker(id, address), setCookies);
        }
        case 'slack':
        case 'discord': {
          const user = (await deps.signedIn?.resolve(cookies))?.user;
          return user && enter(cookies, signedInAsker(user), setCookies, user.name);
        }
      }
    },
  };
}
