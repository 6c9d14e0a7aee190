import type { KnowledgeStore } from '../../core/ports/knowledge-store.js';
import {
  embeddingBytes,
  embeddingOf,
  KNOWLEDGE_HIT_COLUMNS,
  type KnowledgeHitRow,
  knowledgeHitOf,
} from '../knowledge-rows.js';
import type { PostgresDb } from './postgres-db.js';
import { waitingFirst } from './postgres-waiting-first.js';

interface PassageRow {
  scope: string;
  path: string;
  ordinal: number;
  heading: string | null;
  text: string;
}

type Embeddings = Pick<
  KnowledgeStore,
  'knowledgePassages' | 'passagesToEmbed' | 'putEmbeddings' | 'knowledgeEmbeddings'
>;

/** Passages' embeddings in Postgres: kept in their rows as bytes (migration 19), read file by file. */
export function postgresEmbeddings(db: PostgresDb): Embeddings {
  const waiting = waitingFirst();
  return {
    async knowledgePassages(refs) {
      if (refs.length === 0) return [];
      const { rows } = await db.query<KnowledgeHitRow>(
        'read passages',
        `SELECT ${KNOWLEDGE_HIT_COLUMNS} FROM knowledge_passages
          JOIN unnest($1::text[], $2::text[], $3::int[]) AS r(scope, path, ordinal) USING (scope, path, ordinal)`,
        [refs.map((r) => r.scope), refs.map((r) => r.path), refs.map((r) => r.ordinal)],
      );
      return rows.map(knowledgeHitOf);
    },
    async passagesToEmbed(model, limit) {
      const rows = await waiting(
        (sql, params) => db.query<PassageRow>('find passages to embed', sql, params),
        `SELECT scope, path, ordinal, heading, text FROM knowledge_passages WHERE {waiting}
          ORDER BY scope, path, ordinal LIMIT $1`,
        model,
        limit,
      );
      return rows.map((r) => ({ ...r, heading: r.heading ?? undefined }));
    },
    async putEmbeddings(model, items, at) {
      if (items.length === 0) return;
      await db.transaction('keep embeddings', async (sql) => {
        await sql(
          `UPDATE knowledge_passages p SET embedding = r.embedding, embedding_model = $5
             FROM unnest($1::text[], $2::text[], $3::int[], $4::bytea[], $6::text[])
                  AS r(scope, path, ordinal, embedding, text)
            WHERE p.scope = r.scope AND p.path = r.path AND p.ordinal = r.ordinal AND p.text = r.text`,
          [
            items.map((e) => e.scope),
            items.map((e) => e.path),
            items.map((e) => e.ordinal),
            items.map((e) => embeddingBytes(e.embedding)),
            model,
            items.map((e) => e.text),
          ],
        );
        const files = [...new Set(items.map((e) => JSON.stringify([e.scope, e.path])))].map(
          (k) => JSON.parse(k) as [string, string],
        );
        await sql(
          `UPDATE knowledge_files f SET indexed_at = greatest(f.indexed_at + 1, $3)
             FROM unnest($1::text[], $2::text[]) AS r(scope, path)
            WHERE f.scope = r.scope AND f.path = r.path`,
          [files.map((f) => f[0]), files.map((f) => f[1]), at],
        );
      });
    },
    async knowledgeEmbeddings(scope, path, model) {
      const { rows } = await db.query<{ ordinal: number; embedding: Buffer }>(
        'read embeddings',
        `SELECT ordinal, embedding FROM knowledge_passages
          WHERE scope = $1 AND path = $2 AND embedding_model = $3 ORDER BY ordinal`,
        [scope, path, model],
      );
      return rows.map((r) => ({ scope, path, ordinal: r.ordinal, embedding: embeddingOf(r.embedding) }));
    },
  };
}
