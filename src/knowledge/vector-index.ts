import type { KnowledgeStore, PassageRef } from '../core/ports/knowledge-store.js';

/** A file's passages' embeddings as kept in memory: unit vectors in 8 bits, each with its scale. */
interface FileVectors {
  indexedAt: number;
  ordinals: Int32Array;
  dims: number;
  values: Int8Array;
  scales: Float32Array;
}

/** A passage near a query, by cosine similarity (1 the same direction). */
export interface Nearby extends PassageRef {
  score: number;
}

/** What the index reads: the files of a scope (to see which changed) and a file's embeddings. */
export type VectorSource = Pick<KnowledgeStore, 'knowledgeFiles' | 'knowledgeEmbeddings'>;

/** A unit vector in 8 bits: its components over the largest, times 127 (cosine error well under 1%). */
function quantize(embedding: Float32Array, into: Int8Array, at: number): number {
  let norm = 0;
  let largest = 0;
  for (const x of embedding) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  for (const x of embedding) largest = Math.max(largest, Math.abs(x / norm));
  const scale = largest / 127 || 1;
  for (let i = 0; i < embedding.length; i++) into[at + i] = Math.round(embedding[i]! / norm / scale);
  return scale;
}

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
      const dims = rows[0]?.embedding.length ?? 0;
      const usable = rows.filter((r) => r.embedding.length === dims);
      const vectors: FileVectors = {
        indexedAt: file.indexedAt,
        ordinals: Int32Array.from(usable.map((r) => r.ordinal)),
        dims,
        values: new Int8Array(usable.length * dims),
        scales: new Float32Array(usable.length),
      };
      usable.forEach((r, i) => {
        vectors.scales[i] = quantize(r.embedding, vectors.values, i * dims);
      });
      files.set(file.path, vectors);
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
      let norm = 0;
      for (const x of query) norm += x * x;
      norm = Math.sqrt(norm) || 1;
      const best: Nearby[] = [];
      for (const scope of inScopes) {
        for (const [path, file] of await refresh(scope)) {
          if (file.dims !== query.length) continue;
          for (let i = 0; i < file.ordinals.length; i++) {
            let dot = 0;
            const at = i * file.dims;
            for (let d = 0; d < file.dims; d++) dot += query[d]! * file.values[at + d]!;
            const score = (dot * file.scales[i]!) / norm;
            if (best.length === limit && score <= best[limit - 1]!.score) continue;
            const place = best.findIndex((b) => score > b.score);
            best.splice(place === -1 ? best.length : place, 0, {
              scope,
              path,
              ordinal: file.ordinals[i]!,
              score,
            });
            if (best.length > limit) best.pop();
          }
        }
      }
      return best;
    },
  };
}

/** The in-process vector index. */
export type VectorIndex = ReturnType<typeof createVectorIndex>;
