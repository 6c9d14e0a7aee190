/** A signed-in web session as the store keeps it: the cookie carries only a random ID, the row the rest. */
export interface WebSession {
  /** A hash of the random session ID the sealed cookie carries (the ID itself is never stored). */
  id: string;
  /** `slack:T…:U…`, `discord:…`, or `admin:token` for an ADMIN_TOKEN login. */
  principal: string;
  userId: string;
  name: string;
  /** The roles the last membership check found (Discord), for role-based settings. */
  roles: string[];
  /** The provider's token for re-checking membership, sealed by the web chat; undefined when none is kept. */
  grant?: string | undefined;
  /** Milliseconds since the epoch. */
  createdAt: number;
  lastSeen: number;
  /** When membership was last confirmed. */
  checkedAt: number;
  /** The client address and user agent at sign-in, for the person's and admins' session lists. */
  address: string;
  userAgent: string;
}

/**
 * Signed-in web sessions, kept so that signing out, expiry, blocking and leaving the workspace end them on
 * every replica: a cookie whose row is gone is worth nothing.
 */
export interface WebSessionStore {
  createWebSession(session: WebSession): Promise<void>;
  /** The session `id`, or undefined when it was ended (or never existed). */
  webSession(id: string): Promise<WebSession | undefined>;
  /** Records that the session was used at `at`. */
  touchWebSession(id: string, at: number): Promise<void>;
  /** Records a membership check that confirmed the session at `at`, with the roles it found. */
  confirmWebSession(id: string, at: number, roles: readonly string[]): Promise<void>;
  /** Ends one session; false when it was already gone. */
  deleteWebSession(id: string): Promise<boolean>;
  /** Ends every session of `principal`: how many there were. */
  deleteWebSessionsOf(principal: string): Promise<number>;
  /** The most recently used sessions (without their grants), at most `limit`, for the admin page. */
  listWebSessions(limit: number): Promise<WebSession[]>;
  /** Ends the sessions idle since before `idleBefore` or created before `createdBefore`: how many. */
  deleteExpiredWebSessions(idleBefore: number, createdBefore: number): Promise<number>;
}
