import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '../config.js';
import { ConfigError } from '../core/errors.js';
import type { Embedder } from '../core/llm/embedder.js';
import { createOpenAIEmbedder } from '../core/llm/openai-embedder.js';
import type { Logger } from '../core/logger.js';
import type { KnowledgeStore } from '../core/ports/knowledge-store.js';
import type { KnowledgeSettings } from '../core/tools/search-knowledge.js';
import { type ChannelKnowledge, createChannelKnowledge } from './channel-knowledge.js';
import { type EmbeddedKnowledge, withEmbeddings } from './embedded-knowledge.js';
import { type EmbeddedRecall, type RecallStore, withRecallEmbeddings } from './embedded-recall.js';
import { createKnowledgeIndexer, type KnowledgeIndexer } from './knowledge-indexer.js';

/** Characters of one knowledge base file indexed at most. */
const FILE_MAX_CHARS = 5_000_000;

/** What `search_knowledge` reads from the configuration, or undefined when there is no knowledge at all. */
export function knowledgeSettingsFrom(config: Config): KnowledgeSettings | undefined {
  if (!config.KNOWLEDGE_DIR && !config.KNOWLEDGE_SHARED_FILES) return undefined;
  return {
    KNOWLEDGE_DIR: config.KNOWLEDGE_DIR ? resolve(config.KNOWLEDGE_DIR) : undefined,
    KNOWLEDGE_BASE_URL: config.KNOWLEDGE_BASE_URL,
    KNOWLEDGE_MAX_TOKENS: config.KNOWLEDGE_MAX_TOKENS,
  };
}

/** The knowledge base's indexer and the channels' shared files, as the configuration asks. */
export interface Knowledge {
  channel?: ChannelKnowledge | undefined;
  indexer?: KnowledgeIndexer | undefined;
  /** The store with embeddings (EMBEDDINGS_MODEL): what `search_knowledge` and `/knowledge` use. */
  embedded?: EmbeddedKnowledge | undefined;
}

/** The embedding model of EMBEDDINGS_MODEL (its server and key default to the chat model's); undefined unset. */
export function embedderFrom(config: Config): Embedder | undefined {
  if (!config.EMBEDDINGS_MODEL) return undefined;
  return createOpenAIEmbedder({
    model: config.EMBEDDINGS_MODEL,
    baseURL: config.EMBEDDINGS_BASE_URL ?? config.OPENAI_BASE_URL,
    apiKey: config.EMBEDDINGS_API_KEY ?? config.OPENAI_API_KEY,
    dimensions: config.EMBEDDINGS_DIMENSIONS || undefined,
    maxRetries: config.LLM_MAX_RETRIES,
    timeoutMs: config.LLM_TIMEOUT_MS,
  });
}

/** `recall`'s archive searched by words and meaning when EMBEDDINGS_MODEL is set; the store as it is when not. */
export function recallArchive(
  config: Config,
  store: RecallStore,
  logger: Logger,
): EmbeddedRecall | undefined {
  const embedder = config.RECALL_EMBEDDINGS ? embedderFrom(config) : undefined;
  if (!embedder) return undefined;
  return withRecallEmbeddings(store, embedder, logger.child({ embeddings: embedder.model }));
}

/**
 * Starts what the configuration asks for: the indexer of KNOWLEDGE_DIR (its first pass awaited, then the
 * folder watched) and the keeping of files shared in channels. A KNOWLEDGE_DIR that is not a folder stops
 * start-up with a ConfigError.
 */
export async function startKnowledge(
  config: Config,
  store: KnowledgeStore,
  logger: Logger,
): Promise<Knowledge> {
  const embedder = config.KNOWLEDGE_DIR || config.KNOWLEDGE_SHARED_FILES ? embedderFrom(config) : undefined;
  const embedded = embedder
    ? withEmbeddings(store, embedder, logger.child({ embeddings: embedder.model }))
    : undefined;
  if (embedded) store = embedded;
  const channel = config.KNOWLEDGE_SHARED_FILES ? createChannelKnowledge({ store, logger }) : undefined;
  if (!config.KNOWLEDGE_DIR) return { channel, embedded };
  const dir = resolve(config.KNOWLEDGE_DIR);
  let folder = false;
  try {
    folder = statSync(dir).isDirectory();
  } catch {
    // Named below.
  }
  if (!folder) throw new ConfigError([`KNOWLEDGE_DIR: ${dir} is not a folder this process can read.`]);
  const indexer = createKnowledgeIndexer({
    dir,
    store,
    limits: { maxBytes: config.DOCUMENT_MAX_BYTES, maxChars: FILE_MAX_CHARS, maxUnpackedBytes: 100_000_000 },
    logger: logger.child({ knowledge: dir }),
  });
  await indexer.start();
  return { channel, indexer, embedded };
}
