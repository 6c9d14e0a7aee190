import { createHash } from 'node:crypto';
import type { Logger } from '../../../core/logger.js';
import type { WebSession, WebSessionStore } from '../../../core/ports/web-session-store.js';
import type { SignedIn } from '../asker.js';
import { newId } from '../identity.js';
import type { Sealer } from '../sealed.js';
import type { Proven, SignInProvider } from './provider.js';
import { SESSION_COOKIE, type SessionCookies } from './session.js';

/** How long sessions last and how often membership is confirmed (WEB_SESSION_IDLE, WEB_SESSION_MAX, WEB_MEMBERSHIP_CHECK). */
export interface SessionTimes {
  idleMs: number;
  maxMs: number;
  checkMs: number;
}

/** Where a sign-in came from, kept with its session. */
export interface ClientInfo {
  address: string;
  userAgent: string;
}

/** A signed-in request: the person and their session's row ID. */
export interface Resolved {
  user: SignedIn;
  sessionId: string;
}

/** Signed-in web sessions: started at sign-in, resolved on every request, ended by sign-out, expiry or revocation. */
export interface WebSessions {
  /** A new session for `proven` (a fresh random ID at every sign-in): the cookie to set. */
  start(proven: Proven, client: ClientInfo): Promise<string>;
  /** The request's person, or undefined when its session was ended, expired, blocked or left the workspace. */
  resolve(cookies: ReadonlyMap<string, string>): Promise<Resolved | undefined>;
  /** Ends the request's session; the cookie that clears it. */
  end(cookies: ReadonlyMap<string, string>): Promise<string>;
  /** Ends every session of `principal` (sign out everywhere, an admin's revocation): how many. */
  endAll(principal: string, why: string): Promise<number>;
  /** Deletes the sessions past their idle or absolute limit: how many. */
  sweep(): Promise<number>;
}

/** What {@link createWebSessions} needs. */
export interface WebSessionsDeps {
  store: WebSessionStore;
  cookies: SessionCookies;
  /** Seals the provider's token before it is stored (purpose `grant`). */
  sealer: Sealer;
  times: SessionTimes;
  /** Re-checks membership; without one (admin logins only), nothing is re-checked. */
  provider?: SignInProvider | undefined;
  /** Whether `principal` is blocked now (BLOCK_USERS): their sessions end at their next request. */
  blocked(principal: string): boolean;
  logger: Logger;
  now: () => number;
}

/** Use is recorded at most this often per session. */
const TOUCH_MS = 60_000;
/** A membership check that could not tell is tried again after this long. */
const RETRY_CHECK_MS = 60_000;
const GRANT = 'grant';

/** Whether `row` is past its limits at `at`: unused longer than `idleMs`, or older than `maxMs`. */
export function outlived(
  row: WebSession,
  limits: Pick<SessionTimes, 'idleMs' | 'maxMs'>,
  at: number,
): boolean {
  return at - row.lastSeen > limits.idleMs || at - row.createdAt > limits.maxMs;
}

/** Records that `row` was used at `at`, at most once a minute (one write a minute, not one per request). */
export async function touched(store: WebSessionStore, row: WebSession, at: number): Promise<void> {
  if (at - row.lastSeen >= TOUCH_MS) await store.touchWebSession(row.id, at);
}

/** The row ID of a cookie's session ID: the ID itself is never stored, so a database leak gives no cookies. */
export function sessionRowId(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('base64url');
}

/** Sessions in `deps.store`, re-checked against the provider every `checkMs`. */
export function createWebSessions(deps: WebSessionsDeps): WebSessions {
  const { store, cookies, sealer, times, logger, now } = deps;
  const checking = new Map<string, Promise<SignedIn | undefined>>();
  const retryAt = new Map<string, number>();
  const seconds = Math.max(1, Math.floor(times.maxMs / 1000));

  const userOf = (row: WebSession): SignedIn => ({
    principal: row.principal,
    userId: row.userId,
    name: row.name,
    ...(row.roles.length > 0 ? { roles: row.roles } : {}),
  });

  const endAll = async (principal: string, why: string) => {
    const ended = await store.deleteWebSessionsOf(principal);
    if (ended > 0) logger.info({ user: principal, sessions: ended, why }, 'web sessions ended');
    return ended;
  };

  /** Confirms the row's person with the provider; undefined when they are gone (their sessions ended). */
  const recheck = async (row: WebSession): Promise<SignedIn | undefined> => {
    const user = userOf(row);
    if (!deps.provider || now() - row.checkedAt < times.checkMs || (retryAt.get(row.id) ?? 0) > now())
      return user;
    const grant = row.grant ? sealer.open(GRANT, row.grant)?.t : undefined;
    const found = await deps.provider.recheck(user, typeof grant === 'string' ? grant : undefined);
    switch (found.status) {
      case 'member':
        retryAt.delete(row.id);
        await store.confirmWebSession(row.id, now(), found.roles);
        return { ...user, roles: found.roles };
      case 'outside':
        retryAt.delete(row.id);
        await endAll(row.principal, `membership: ${found.why}`);
        return undefined;
      case 'unknown':
        retryAt.set(row.id, now() + RETRY_CHECK_MS);
        logger.warn({ user: row.principal, why: found.why }, 'could not re-check a web session’s membership');
        return user;
    }
  };

  return {
    async start(proven, client) {
      const id = newId();
      const at = now();
      await store.createWebSession({
        id: sessionRowId(id),
        principal: proven.user.principal,
        userId: proven.user.userId,
        name: proven.user.name,
        roles: [...(proven.user.roles ?? [])],
        grant: proven.grant ? sealer.seal(GRANT, { t: proven.grant }, seconds) : undefined,
        createdAt: at,
        lastSeen: at,
        checkedAt: at,
        address: client.address,
        userAgent: client.userAgent,
      });
      return cookies.issue(id, seconds);
    },
    async resolve(jar) {
      const id = cookies.sessionId(jar);
      if (!id) return undefined;
      const rowId = sessionRowId(id);
      const row = await store.webSession(rowId);
      if (!row) return undefined;
      const at = now();
      if (outlived(row, times, at)) {
        await store.deleteWebSession(rowId);
        return undefined;
      }
      if (deps.blocked(row.principal)) {
        await endAll(row.principal, 'BLOCK_USERS');
        return undefined;
      }
      let pending = checking.get(rowId);
      if (!pending) {
        pending = recheck(row).finally(() => checking.delete(rowId));
        checking.set(rowId, pending);
      }
      const user = await pending;
      if (!user) return undefined;
      await touched(store, row, at);
      return { user, sessionId: rowId };
    },
    async end(jar) {
      const id = cookies.sessionId(jar);
      if (id) await store.deleteWebSession(sessionRowId(id));
      return cookies.clear(SESSION_COOKIE);
    },
    endAll,
    sweep: () => {
      const at = now();
      return store.deleteExpiredWebSessions(at - times.idleMs, at - times.maxMs);
    },
  };
}
