import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '../config.js';
import { ConfigError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { KnowledgeStore } from '../core/ports/knowledge-store.js';
import type { KnowledgeSettings } from '../core/tools/search-knowledge.js';
import { type ChannelKnowledge, createChannelKnowledge } from './channel-knowledge.js';
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
  const channel = config.KNOWLEDGE_SHARED_FILES ? createChannelKnowledge({ store, logger }) : undefined;
  if (!config.KNOWLEDGE_DIR) return { channel };
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
  return { channel, indexer };
}
