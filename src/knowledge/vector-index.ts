import type { KnowledgeStore, PassageRef } from '../core/ports/knowledge-store.js';
import { scan, TopK, toChunk, unit, type VectorChunk } from './vector-chunk.js';

/** A file's passages' embeddings as kept in memory. */
interface FileVectors {
  indexedAt: number;
  ordinals: Int32Array;
  chunk: VectorChunk;
}

/** A passage near a query, by cosine similarity (1 the same direction). */
export interface Nearby extends PassageRef {
  score: number;
}

/** What the index reads: the files of a scope (to see which changed) and a file's embeddings. */
export type VectorSource = Pick<KnowledgeStore, 'knowledgeFiles' | 'knowledgeEmbeddings'>;

/**
 * Exact cosine search over the embeddings of `model`, in this process: a scope's files are loaded once and
 * reloaded one by one when their `indexedAt` changes (a re-indexed file, embeddings added), so replicas
 * sharing a Postgres store see each other's work. Memory: one byte per dimension per passage.
 */
export function createVectorIndex(source: VectorSource, model: string) {
  const scopes = new Map<string, Map<string, FileVectors>>();
  const refreshing = new Map<string, Promise<Map<string, FileVectors>>>();

  async function load(scope: string): Promise<Map<string, FileVectors>> {
    const files = scopes.get(scope) ?? new Map<string, FileVectors>();
    const current = await source.knowledgeFiles(scope);
    const present = new Set(current.map((f) => f.path));
    for (const path of files.keys()) if (!present.has(path)) files.delete(path);
    for (const file of current) {
      if (files.get(file.path)?.indexedAt === file.indexedAt) continue;
      const rows = await source.knowledgeEmbeddings(scope, file.path, model);
      const { chunk, kept } = toChunk(rows.map((r) => r.embedding));
      files.set(file.path, {
        indexedAt: file.indexedAt,
        ordinals: Int32Array.from(kept.map((i) => rows[i]!.ordinal)),
        chunk,
      });
    }
    scopes.set(scope, files);
    return files;
  }

  /** The scope's vectors brought up to date; concurrent searches share one reload. */
  function refresh(scope: string): Promise<Map<string, FileVectors>> {
    let pending = refreshing.get(scope);
    if (!pending) {
      pending = load(scope).finally(() => refreshing.delete(scope));
      refreshing.set(scope, pending);
    }
    return pending;
  }

  return {
    /** The `limit` passages of these scopes nearest to `query`, nearest first. */
    async nearest(inScopes: readonly string[], query: Float32Array, limit: number): Promise<Nearby[]> {
      const q = unit(query);
      const best = new TopK<PassageRef>(limit);
      for (const scope of inScopes) {
        for (const [path, file] of await refresh(scope)) {
          scan(file.chunk, q, best, (i) => ({ scope, path, ordinal: file.ordinals[i]! }));
        }
      }
      return best.items.map(({ item, score }) => ({ ...item, score }));
    },
  };
}

/** The in-process vector index. */
export type VectorIndex = ReturnType<typeof createVectorIndex>;
