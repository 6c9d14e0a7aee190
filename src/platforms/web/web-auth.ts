import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import { listNames } from '../../core/governance/principal.js';
import type { Logger } from '../../core/logger.js';
import type { AppSecretStore } from '../../core/ports/app-secret-store.js';
import type { WebSessionStore } from '../../core/ports/web-session-store.js';
import { createTokenGate, type TokenGate } from './access-token.js';
import { type AdminGate, createAdminGate } from './admin/admin-gate.js';
import { type CookieOptions, secureCookies } from './cookies.js';
import { createIdentities, type Identities } from './identity.js';
import { isLoopback } from './loopback.js';
import { memoryWebSessions } from './memory-web-sessions.js';
import { createSealer } from './sealed.js';
import { createSignInProvider } from './sign-in/create-provider.js';
import type { SignInProvider } from './sign-in/provider.js';
import { createSessionCookies, type SessionCookies } from './sign-in/session.js';
import { createWebSessions, type WebSessions } from './sign-in/web-sessions.js';
import { storeView } from './store-view.js';
import { createWebGate, type WebGate } from './web-gate.js';

/** The name the generated cookie key is kept under. */
const KEPT_SECRET = 'web_session_secret';

/** How often sessions past their idle or absolute limit are deleted. */
const SWEEP_MS = 3600_000;

/** Who may use the web chat and the admin page, and how they prove it: cookies, the token, sign-in and its sessions. */
export interface WebAuth {
  cookieOptions: CookieOptions;
  identities: Identities;
  sessionCookies: SessionCookies;
  token: TokenGate;
  /** Sign in with Slack or Discord (WEB_AUTH=slack|discord). */
  provider?: SignInProvider | undefined;
  signedIn?: WebSessions | undefined;
  sessionStore: WebSessionStore;
  gate: WebGate;
  adminGate: AdminGate;
  /**
   * Without WEB_SESSION_SECRET, keys the cookies by a secret generated once and kept in the store, so a
   * restart (or another replica on the same database) keeps everyone's sessions and chats. Call before serving.
   */
  keepSecret(): Promise<void>;
  /** Deletes expired sessions now and every hour, until {@link WebAuth.stopSweeping}. */
  startSweeping(): void;
  stopSweeping(): void;
}

/** What {@link createWebAuth} keeps sessions in and reports to. */
export interface WebAuthDeps {
  /** The bot's store, when it keeps sessions too. */
  store?: unknown;
  /** Where sessions are kept instead (tests); else `store`, else this process's memory. */
  sessions?: WebSessionStore | undefined;
  logger: Logger;
  now: () => number;
}

/** The web chat's access control, by WEB_AUTH. */
export function createWebAuth(config: Config, deps: WebAuthDeps): WebAuth {
  const { logger, now } = deps;
  const cookieOptions = { secure: secureCookies(config.WEB_PUBLIC_URL, isLoopback(config.WEB_HOST)) };
  const sealer = createSealer(config.WEB_SESSION_SECRET, now);
  const identities = createIdentities(sealer, cookieOptions);
  const sessionCookies = createSessionCookies(sealer, cookieOptions);
  const token = createTokenGate(config.WEB_AUTH === 'token' ? config.WEB_CHAT_TOKEN : undefined);
  const provider = createSignInProvider(config);
  const sessionStore =
    deps.sessions ??
    storeView<WebSessionStore>(deps.store, 'webSession', 'createWebSession') ??
    memoryWebSessions();
  const signedIn = provider
    ? createWebSessions({
        store: sessionStore,
        cookies: sessionCookies,
        sealer,
        times: {
          idleMs: config.WEB_SESSION_IDLE,
          maxMs: config.WEB_SESSION_MAX,
          checkMs: config.WEB_MEMBERSHIP_CHECK,
        },
        provider,
        blocked: (principal) => listNames(config.BLOCK_USERS, principal),
        logger,
        now,
      })
    : undefined;
  let sweeper: NodeJS.Timeout | undefined;
  const sweep = () =>
    signedIn
      ?.sweep()
      .then((ended) => ended > 0 && logger.info({ sessions: ended }, 'expired web sessions ended'))
      .catch((err: unknown) => logger.warn({ err }, 'could not end expired web sessions'));
  return {
    cookieOptions,
    identities,
    sessionCookies,
    token,
    provider,
    signedIn,
    sessionStore,
    gate: createWebGate({ mode: config.WEB_AUTH, identities, token, signedIn, provider }),
    adminGate: createAdminGate(config, {
      signedIn,
      store: sessionStore,
      cookies: sessionCookies,
      idleMs: config.WEB_SESSION_IDLE,
      now,
    }),
    async keepSecret() {
      const kept = storeView<AppSecretStore>(deps.store, 'appSecret');
      if (config.WEB_SESSION_SECRET || !kept) return;
      sealer.useSecret(await kept.appSecret(KEPT_SECRET, () => randomBytes(32).toString('base64url')));
    },
    startSweeping() {
      if (!signedIn || sweeper) return;
      void sweep();
      sweeper = setInterval(sweep, SWEEP_MS).unref();
    },
    stopSweeping() {
      clearInterval(sweeper);
      sweeper = undefined;
    },
  };
}
