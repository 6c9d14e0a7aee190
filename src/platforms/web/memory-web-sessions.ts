import type { WebSession, WebSessionStore } from '../../core/ports/web-session-store.js';

/** Sessions kept in this process only: for a web chat given no store (sessions end with the process). */
export function memoryWebSessions(): WebSessionStore {
  const rows = new Map<string, WebSession>();
  const drop = (keep: (s: WebSession) => boolean) => {
    let n = 0;
    for (const [id, s] of rows) if (!keep(s) && rows.delete(id)) n++;
    return n;
  };
  return {
    createWebSession: async (s) => void rows.set(s.id, { ...s }),
    webSession: async (id) => {
      const s = rows.get(id);
      return s && { ...s };
    },
    touchWebSession: async (id, at) => {
      const s = rows.get(id);
      if (s) s.lastSeen = Math.max(s.lastSeen, at);
    },
    confirmWebSession: async (id, at, roles) => {
      const s = rows.get(id);
      if (s) Object.assign(s, { checkedAt: at, roles: [...roles] });
    },
    deleteWebSession: async (id) => rows.delete(id),
    deleteWebSessionsOf: async (principal) => drop((s) => s.principal !== principal),
    listWebSessions: async (limit) =>
      [...rows.values()]
        .sort((a, b) => b.lastSeen - a.lastSeen)
        .slice(0, limit)
        .map((s) => ({ ...s, grant: undefined })),
    deleteExpiredWebSessions: async (idleBefore, createdBefore) =>
      drop((s) => s.lastSeen >= idleBefore && s.createdAt >= createdBefore),
  };
}
