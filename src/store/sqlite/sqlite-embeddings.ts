import type Database from 'better-sqlite3';
import type { KnowledgeStore, PassageEmbedding, PassageToEmbed } from '../../core/ports/knowledge-store.js';
import {
  embeddingBytes,
  embeddingOf,
  KNOWLEDGE_HIT_COLUMNS,
  type KnowledgeHitRow,
  knowledgeHitOf,
} from '../knowledge-rows.js';
import type { sqliteRunner } from './sqlite-run.js';
import { waitingFirst } from './waiting-first.js';

type Embeddings = Pick<
  KnowledgeStore,
  'knowledgePassages' | 'passagesToEmbed' | 'putEmbeddings' | 'knowledgeEmbeddings'
>;

/** Passages' embeddings in SQLite: kept in their rows (migration 19), read file by file. */
export function sqliteEmbeddings(db: Database.Database, run: ReturnType<typeof sqliteRunner>): Embeddings {
  const passage = db.prepare<[string, string, number], KnowledgeHitRow>(
    `SELECT ${KNOWLEDGE_HIT_COLUMNS} FROM knowledge_passages WHERE scope = ? AND path = ? AND ordinal = ?`,
  );
  const fresh = db.prepare<[number], PassageToEmbed & { heading: string | undefined }>(
    `SELECT scope, path, ordinal, heading, text FROM knowledge_passages
      WHERE embedding_model IS NULL ORDER BY id LIMIT ?`,
  );
  const others = db.prepare<[string, number], PassageToEmbed & { heading: string | undefined }>(
    `SELECT scope, path, ordinal, heading, text FROM knowledge_passages
      WHERE embedding_model IS NOT NULL AND embedding_model <> ? ORDER BY id LIMIT ?`,
  );
  const toEmbed = waitingFirst(fresh, others);
  const setEmbedding = db.prepare<[Buffer, string, string, string, number, string]>(
    `UPDATE knowledge_passages SET embedding = ?, embedding_model = ?
      WHERE scope = ? AND path = ? AND ordinal = ? AND text = ?`,
  );
  const touchFile = db.prepare<[number, string, string]>(
    'UPDATE knowledge_files SET indexed_at = max(indexed_at + 1, ?) WHERE scope = ? AND path = ?',
  );
  const embeddings = db.prepare<[string, string, string], { ordinal: number; embedding: Buffer }>(
    `SELECT ordinal, embedding FROM knowledge_passages
      WHERE scope = ? AND path = ? AND embedding_model = ? ORDER BY ordinal`,
  );
  const put = db.transaction(
    (model: string, items: readonly (PassageEmbedding & { text: string })[], at: number) => {
      const files = new Set<string>();
      for (const e of items) {
        if (
          setEmbedding.run(embeddingBytes(e.embedding), model, e.scope, e.path, e.ordinal, e.text).changes > 0
        )
          files.add(JSON.stringify([e.scope, e.path]));
      }
      for (const key of files) {
        const [scope, path] = JSON.parse(key) as [string, string];
        touchFile.run(at, scope, path);
      }
    },
  );
  return {
    knowledgePassages: (refs) =>
      run('read passages', () =>
        refs.flatMap((r) => {
          const row = passage.get(r.scope, r.path, r.ordinal);
          return row ? [knowledgeHitOf(row)] : [];
        }),
      ),
    passagesToEmbed: (model, limit) =>
      run('find passages to embed', () =>
        toEmbed(model, limit).map((p) => ({ ...p, heading: p.heading ?? undefined })),
      ),
    putEmbeddings: (model, items, at) => run('keep embeddings', () => put(model, items, at)),
    knowledgeEmbeddings: (scope, path, model) =>
      run('read embeddings', () =>
        embeddings.all(scope, path, model).map((r) => ({
          scope,
          path,
          ordinal: r.ordinal,
          embedding: embeddingOf(r.embedding),
        })),
      ),
  };
}
