// Embeddings in the knowledge bench: a scripted /v1/embeddings (tests/fakes/embeddings-server.ts: words mapped
// to concepts, as a real model learns them) and the knowledge store searched by words and meaning together.
import type { Embedder } from '../../src/core/llm/embedder.js';
import { createOpenAIEmbedder } from '../../src/core/llm/openai-embedder.js';
import type { Logger } from '../../src/core/logger.js';
import type { KnowledgeStore } from '../../src/core/ports/knowledge-store.js';
import { type EmbeddedKnowledge, withEmbeddings } from '../../src/knowledge/embedded-knowledge.js';
import { type FakeEmbeddings, startFakeEmbeddings } from '../../tests/fakes/embeddings-server.js';

/** Vector size the bench asks for (what EMBEDDINGS_DIMENSIONS=256 would give with text-embedding-3). */
export const BENCH_DIMENSIONS = 256;

/** The embedder the benches use, on the scripted server. */
export function benchEmbedder(server: FakeEmbeddings): Embedder {
  return createOpenAIEmbedder({
    model: 'text-embedding-3-small',
    baseURL: server.url,
    dimensions: BENCH_DIMENSIONS,
    // As LLM_MAX_RETRIES would: a kept-alive connection the server closes at that moment is tried again.
    maxRetries: 2,
    timeoutMs: 60_000,
  });
}

/** The scripted embeddings server and a way to wrap a store with it. */
export async function benchEmbeddings(logger: Logger): Promise<{
  server: FakeEmbeddings;
  /** What the vectors are kept under (the model at the size asked). */
  model: string;
  wrap(store: KnowledgeStore): EmbeddedKnowledge;
}> {
  const server = await startFakeEmbeddings({ dimensions: BENCH_DIMENSIONS });
  const embedder = benchEmbedder(server);
  return { server, model: embedder.model, wrap: (store) => withEmbeddings(store, embedder, logger) };
}
