import type { Embedder } from '../core/llm/embedder.js';
import { EMBED_BATCH } from '../core/llm/openai-embedder.js';
import type { Logger } from '../core/logger.js';
import type { KnowledgeHit, KnowledgeStore, PassageRef } from '../core/ports/knowledge-store.js';
import { embeddingFill, embedEach } from './embedding-fill.js';
import { queryEmbedding } from './query-embedding.js';
import { fuseByRank } from './rank-fusion.js';
import { createVectorIndex } from './vector-index.js';

/** A knowledge store whose passages also get embeddings, searched by words and by meaning together. */
export interface EmbeddedKnowledge extends KnowledgeStore {
  /** Resolves when no passage waits for its embedding (or embedding failed and will be retried later). */
  embedded(): Promise<void>;
  stop(): void;
}

const keyOf = (r: PassageRef) => `${r.scope}\n${r.path}\n${r.ordinal}`;

/** Two rankings fused by reciprocal rank: a passage both find ranks above one only either finds. */
export function fuseRankings(...rankings: readonly (readonly PassageRef[])[]): PassageRef[] {
  return fuseByRank(rankings, keyOf);
}

/**
 * The store with EMBEDDINGS_MODEL: every passage put is embedded in the background (waiting ones first at
 * start, so a new model or an earlier failure is caught up), and `searchKnowledge` fuses the full-text
 * ranking with the nearest passages by meaning. When the embeddings endpoint fails, search is by words alone
 * and says so in the log once per failure.
 */
export function withEmbeddings(
  store: KnowledgeStore,
  embedder: Embedder,
  logger: Logger,
  now: () => number = Date.now,
): EmbeddedKnowledge {
  const index = createVectorIndex(store, embedder.model);
  const filler = embeddingFill(
    async () => {
      const waiting = await store.passagesToEmbed(embedder.model, EMBED_BATCH);
      if (waiting.length === 0) return 0;
      const vectors = await embedEach(
        embedder,
        waiting.map((p) => (p.heading ? `${p.heading}\n${p.text}` : p.text)),
        logger,
      );
      await store.putEmbeddings(
        embedder.model,
        waiting.map((p, i) => ({ ...p, embedding: vectors[i]! })),
        now(),
      );
      return waiting.length;
    },
    logger,
    'knowledge',
  );
  const fill = () => filler.fill();

  const embedQuery = queryEmbedding(embedder, logger, 'knowledge', now);
  async function nearest(scopes: readonly string[], query: string, limit: number): Promise<PassageRef[]> {
    const vector = await embedQuery(query);
    return vector ? index.nearest(scopes, vector, limit) : [];
  }

  void fill();
  return {
    forgetKnowledgeFile: (scope, path) => store.forgetKnowledgeFile(scope, path),
    forgetKnowledgeScope: (scope) => store.forgetKnowledgeScope(scope),
    knowledgeFiles: (scope) => store.knowledgeFiles(scope),
    knowledgePassages: (refs) => store.knowledgePassages(refs),
    passagesToEmbed: (model, limit) => store.passagesToEmbed(model, limit),
    putEmbeddings: (model, items, at) => store.putEmbeddings(model, items, at),
    knowledgeEmbeddings: (scope, path, model) => store.knowledgeEmbeddings(scope, path, model),
    async putKnowledgeFile(file, passages) {
      await store.putKnowledgeFile(file, passages);
      void fill();
    },
    async searchKnowledge(scopes, query, limit) {
      if (scopes.length === 0 || limit < 1) return [];
      const pool = Math.max(limit * 4, 20);
      const [words, meaning] = await Promise.all([
        store.searchKnowledge(scopes, query, pool),
        nearest(scopes, query, pool),
      ]);
      const fused = fuseRankings(words, meaning).slice(0, limit);
      const known = new Map<string, KnowledgeHit>(words.map((h) => [keyOf(h), h]));
      const missing = fused.filter((r) => !known.has(keyOf(r)));
      for (const hit of await store.knowledgePassages(missing)) known.set(keyOf(hit), hit);
      return fused.flatMap((r) => known.get(keyOf(r)) ?? []);
    },
    embedded: () => filler.idle(),
    stop: () => filler.stop(),
  };
}
