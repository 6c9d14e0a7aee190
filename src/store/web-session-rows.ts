import type { WebSession } from '../core/ports/web-session-store.js';

/** A web_sessions row as both engines read it (Postgres BIGINTs may arrive as strings). */
export interface WebSessionRow {
  id: string;
  principal: string;
  user_id: string;
  name: string;
  roles: string;
  sealed_grant: string | null;
  created_at: number | string;
  last_seen: number | string;
  checked_at: number | string;
  address: string;
  user_agent: string;
}

/** The columns read, in the order {@link webSessionValues} writes them. */
export const WEB_SESSION_COLUMNS =
  'id, principal, user_id, name, roles, sealed_grant, created_at, last_seen, checked_at, address, user_agent';

/** The session a row holds; roles that do not parse are none. */
export function webSessionOf(row: WebSessionRow): WebSession {
  let roles: string[] = [];
  try {
    const parsed: unknown = JSON.parse(row.roles);
    if (Array.isArray(parsed)) roles = parsed.filter((r): r is string => typeof r === 'string');
  } catch {
    roles = [];
  }
  return {
    id: row.id,
    principal: row.principal,
    userId: row.user_id,
    name: row.name,
    roles,
    ...(row.sealed_grant ? { grant: row.sealed_grant } : {}),
    createdAt: Number(row.created_at),
    lastSeen: Number(row.last_seen),
    checkedAt: Number(row.checked_at),
    address: row.address,
    userAgent: row.user_agent,
  };
}

/** A session's values in {@link WEB_SESSION_COLUMNS} order. */
export function webSessionValues(s: WebSession): (string | number | null)[] {
  return [
    s.id,
    s.principal,
    s.userId,
    s.name,
    JSON.stringify(s.roles),
    s.grant ?? null,
    s.createdAt,
    s.lastSeen,
    s.checkedAt,
    s.address.slice(0, 100),
    s.userAgent.slice(0, 300),
  ];
}
