import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../../core/logger.js';
import type { HttpRoutes } from '../../../server/http-server.js';
import { readCookies } from '../cookies.js';
import type { Identities } from '../identity.js';
import { reply } from '../replies.js';
import { sameOrigin } from '../request-guard.js';
import { OutsideError } from './membership.js';
import type { SignInProvider } from './provider.js';
import { refusedPage } from './refused-page.js';
import type { SessionCookies } from './session.js';
import type { WebSessions } from './web-sessions.js';

/** Where sign-in begins, and where the page is told to send the browser. */
export const SIGN_IN_PATH = '/auth/sign-in';
/** Where Slack or Discord sends the browser back: `WEB_PUBLIC_URL/auth/callback`. */
export const CALLBACK_PATH = '/auth/callback';
/** Signing out: a POST from the page. */
export const SIGN_OUT_PATH = '/auth/sign-out';
/** Signing out of every browser: a POST from the page. */
export const SIGN_OUT_EVERYWHERE_PATH = '/auth/sign-out-everywhere';
/** Pages of this server sign-in may return to (`?return=`); anything else returns to the chat. */
export const RETURN_PATHS: ReadonlySet<string> = new Set(['/admin']);

/** Where to begin signing in so that the browser comes back to `path` (one of RETURN_PATHS). */
export function signInReturningTo(path: string): string {
  return `${SIGN_IN_PATH}?return=${encodeURIComponent(path)}`;
}

/** What the sign-in routes need. */
export interface SignInDeps {
  provider: SignInProvider;
  /** The pending sign-in's cookie. */
  sessions: SessionCookies;
  /** Where sessions are kept. */
  signedIn: WebSessions;
  identities: Identities;
  /** The client address of a request (WEB_TRUST_PROXY decides whether forwarded headers count). */
  address(req: IncomingMessage): string;
  /** WEB_PUBLIC_URL. */
  publicUrl: string;
  logger: Logger;
  /** Whether to serve `req` at all (started, not stopping). */
  serving(req: IncomingMessage): boolean;
}

/** The chat's page, under WEB_PUBLIC_URL. */
export function homeUrl(publicUrl: string): URL {
  return new URL(publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`);
}

/** The redirect URI registered with Slack or Discord. */
export function callbackUrl(publicUrl: string): URL {
  return new URL(CALLBACK_PATH.slice(1), homeUrl(publicUrl));
}

/** Mounts sign-in (GET, redirects to the provider), its callback (GET) and sign-out (POST). */
export function mountSignIn(http: HttpRoutes, deps: SignInDeps): void {
  const { provider, sessions, logger } = deps;
  const home = homeUrl(deps.publicUrl);
  const failed = new URL('?sign-in=failed', home).toString();
  const redirect = (res: ServerResponse, to: string | URL, cookies: string[]) =>
    reply(res, 302, undefined, { location: to.toString(), 'set-cookie': cookies });

  http.mount('GET', SIGN_IN_PATH, async (req, res) => {
    if (!deps.serving(req)) return reply(res, 503, { error: 'starting' });
    try {
      const { url, pending } = await provider.begin();
      const asked = new URL(req.url ?? '/', 'http://sign-in').searchParams.get('return') ?? '';
      const returnTo = RETURN_PATHS.has(asked) ? asked : undefined;
      redirect(res, url, [sessions.issuePending({ ...pending, returnTo })]);
    } catch (err) {
      logger.error({ err, provider: provider.id }, 'could not begin a web sign-in');
      redirect(res, failed, []);
    }
  });

  http.mount('GET', CALLBACK_PATH, async (req, res) => {
    if (!deps.serving(req)) return reply(res, 503, { error: 'starting' });
    const pending = sessions.pending(readCookies(req));
    const back = callbackUrl(deps.publicUrl);
    back.search = new URL(req.url ?? '/', 'http://callback').search;
    if (!pending || back.searchParams.has('error')) {
      logger.info(
        { provider: provider.id, error: back.searchParams.get('error') },
        'a web sign-in was not completed',
      );
      return redirect(res, failed, [sessions.clearPending()]);
    }
    try {
      const proven = await provider.finish(back, pending);
      const user = proven.user;
      const session = await deps.signedIn.start(proven, {
        address: deps.address(req),
        userAgent: String(req.headers['user-agent'] ?? ''),
      });
      logger.info({ provider: provider.id, user: user.principal }, 'signed in to the web chat');
      // A new session value at every sign-in, and a new chat: nothing set before it carries over.
      const to =
        pending.returnTo && RETURN_PATHS.has(pending.returnTo)
          ? new URL(pending.returnTo.slice(1), home)
          : home;
      redirect(res, to, [sessions.clearPending(), session, deps.identities.newChat(user.principal)]);
    } catch (err) {
      if (err instanceof OutsideError) {
        logger.info({ provider: provider.id }, 'a web sign-in from outside the deployment was refused');
        return refusedPage(res, err.page, home, [sessions.clearPending()]);
      }
      logger.warn({ err, provider: provider.id }, 'a web sign-in failed');
      redirect(res, failed, [sessions.clearPending()]);
    }
  });

  const signOut = (everywhere: boolean) => async (req: IncomingMessage, res: ServerResponse) => {
    if (!sameOrigin(req)) return reply(res, 403, { error: 'cross-origin' });
    try {
      const cookies = readCookies(req);
      const who = everywhere ? await deps.signedIn.resolve(cookies) : undefined;
      if (who) await deps.signedIn.endAll(who.user.principal, 'signed out everywhere');
      reply(res, 204, undefined, { 'set-cookie': [await deps.signedIn.end(cookies)] });
    } catch (err) {
      logger.error({ err }, 'could not end a web session');
      reply(res, 503, { error: 'Could not sign out; try again.' });
    }
  };
  http.mount('POST', SIGN_OUT_PATH, signOut(false));
  http.mount('POST', SIGN_OUT_EVERYWHERE_PATH, signOut(true));
}
