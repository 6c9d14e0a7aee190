import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { WebSessionStore } from '../../../core/ports/web-session-store.js';
import type { HttpRoutes } from '../../../server/http-server.js';
import { reply } from '../replies.js';
import { readJson } from '../request-body.js';
import type { WebSessions } from '../sign-in/web-sessions.js';
import { ADMIN_PRINCIPAL } from './admin-gate.js';

/** Sessions the admin page lists. */
const LISTED = 200;
const endBody = z.object({ principal: z.string().min(1).max(300) });

type Api = (
  handler: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void> | void,
) => (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** Mounts the admin page's session list (`GET /admin/api/sessions`) and ending a person's sessions (`POST /admin/api/sessions/end`). */
export function mountAdminSessions(
  http: HttpRoutes,
  api: Api,
  deps: { store: WebSessionStore; signedIn: WebSessions | undefined },
): void {
  http.mount(
    'GET',
    '/admin/api/sessions',
    api(async (_req, res) => {
      const sessions = await deps.store.listWebSessions(LISTED);
      reply(res, 200, {
        signIn: deps.signedIn !== undefined,
        sessions: sessions
          .filter((s) => s.principal !== ADMIN_PRINCIPAL)
          .map((s) => ({
            principal: s.principal,
            name: s.name,
            createdAt: s.createdAt,
            lastSeen: s.lastSeen,
            address: s.address,
            userAgent: s.userAgent,
          })),
      });
    }),
  );
  http.mount(
    'POST',
    '/admin/api/sessions/end',
    api(async (req, res) => {
      const body = await readJson(req, endBody);
      if (!body.ok) return reply(res, body.status, { error: body.error });
      const { principal } = body.value;
      const ended = deps.signedIn
        ? await deps.signedIn.endAll(principal, 'ended by an admin')
        : await deps.store.deleteWebSessionsOf(principal);
      reply(res, 200, { ended });
    }),
  );
}
