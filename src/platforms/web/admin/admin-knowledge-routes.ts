import type { IncomingMessage, ServerResponse } from 'node:http';
import { BASE_SCOPE, type KnowledgeStore } from '../../../core/ports/knowledge-store.js';
import type { KnowledgeIndexer } from '../../../knowledge/knowledge-indexer.js';
import type { HttpRoutes } from '../../../server/http-server.js';
import { reply } from '../replies.js';

type Api = (
  handler: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void> | void,
) => (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** What the Knowledge tab reads: the store's files, and KNOWLEDGE_DIR's indexer when there is one. */
export interface AdminKnowledgeDeps {
  store: Pick<KnowledgeStore, 'knowledgeFiles'> | undefined;
  indexer: Pick<KnowledgeIndexer, 'reindex'> | undefined;
}

/**
 * Mounts the Knowledge tab's API: `GET /admin/api/knowledge` (KNOWLEDGE_DIR's files: passages, size, when
 * indexed, why one could not be read) and `POST /admin/api/knowledge/reindex` (reads every file again).
 */
export function mountAdminKnowledge(http: HttpRoutes, api: Api, deps: AdminKnowledgeDeps): void {
  http.mount(
    'GET',
    '/admin/api/knowledge',
    api(async (_req, res) => {
      if (!deps.store) return reply(res, 200, { dir: false, files: [] });
      const files = await deps.store.knowledgeFiles(BASE_SCOPE);
      reply(res, 200, {
        dir: deps.indexer !== undefined,
        files: files.map((f) => ({
          path: f.path,
          passages: f.passages,
          size: f.size,
          indexedAt: f.indexedAt,
          ...(f.error ? { error: f.error } : {}),
        })),
      });
    }),
  );
  http.mount(
    'POST',
    '/admin/api/knowledge/reindex',
    api(async (_req, res) => {
      if (!deps.indexer)
        return reply(res, 409, { error: 'KNOWLEDGE_DIR is not set: there is nothing to re-index.' });
      reply(res, 200, { report: await deps.indexer.reindex({ force: true }) });
    }),
  );
}
