import { type FSWatcher, watch } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Logger } from '../core/logger.js';
import { BASE_SCOPE, type KnowledgeFile, type KnowledgeStore } from '../core/ports/knowledge-store.js';
import { documentFormat } from '../documents/document-formats.js';
import { DocumentError, type ExtractLimits } from '../documents/document-types.js';
import { extractDocument } from '../documents/extract-document.js';
import { toPassages } from '../documents/passages.js';

/** What one pass over KNOWLEDGE_DIR did. */
export interface IndexReport {
  indexed: number;
  unchanged: number;
  removed: number;
  failed: number;
}

/** Keeps the store's knowledge base in step with KNOWLEDGE_DIR: at start, on every change, and on demand. */
export interface KnowledgeIndexer {
  /** Indexes the folder once, then watches it; resolves after the first pass. */
  start(): Promise<IndexReport>;
  /** One pass now (after any pass in progress); unchanged files (same size and time) are skipped. */
  reindex(options?: { force?: boolean }): Promise<IndexReport>;
  stop(): void;
}

/** What the indexer needs. */
export interface KnowledgeIndexerDeps {
  dir: string;
  store: KnowledgeStore;
  /** Bytes of one file at most (DOCUMENT_MAX_BYTES), and the text and unpacking caps of one file. */
  limits: ExtractLimits & { maxBytes: number };
  logger: Logger;
  /** Quiet time after a change before the folder is read again. */
  debounceMs?: number;
  now?: () => number;
}

/** Files of the folder the indexer reads: supported formats, not hidden, not through symbolic links. */
async function documentsIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath ?? e.path, e.name)))
    .filter((path) => !path.split(sep).some((part) => part.startsWith('.')))
    .filter((path) => documentFormat(path) !== undefined)
    .map((path) => path.split(sep).join('/'))
    .sort();
}

/** Creates the indexer; nothing is read before `start`. */
export function createKnowledgeIndexer(deps: KnowledgeIndexerDeps): KnowledgeIndexer {
  const { dir, store, limits, logger } = deps;
  const now = deps.now ?? Date.now;
  let watcher: FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<IndexReport> = Promise.resolve({ indexed: 0, unchanged: 0, removed: 0, failed: 0 });

  async function indexFile(
    path: string,
    known: KnowledgeFile | undefined,
    force: boolean,
  ): Promise<'indexed' | 'unchanged' | 'failed'> {
    const full = join(dir, path);
    const info = await stat(full);
    const record = { scope: BASE_SCOPE, path, size: info.size, modifiedAt: Math.floor(info.mtimeMs) };
    if (!force && known && known.size === record.size && known.modifiedAt === record.modifiedAt)
      return 'unchanged';
    const failed = async (error: string) => {
      await store.putKnowledgeFile({ ...record, indexedAt: now(), passages: 0, error }, []);
      logger.warn({ path, error }, 'a knowledge file could not be indexed');
      return 'failed' as const;
    };
    if (info.size > limits.maxBytes)
      return failed(`it is larger than ${Math.round(limits.maxBytes / 1_000_000)} MB`);
    try {
      const document = await extractDocument(path, undefined, await readFile(full), limits);
      const passages = toPassages(document.sections);
      await store.putKnowledgeFile({ ...record, indexedAt: now(), passages: passages.length }, passages);
      return 'indexed';
    } catch (err) {
      if (err instanceof DocumentError) return failed(err.message);
      throw err;
    }
  }

  async function pass(force: boolean): Promise<IndexReport> {
    const report: IndexReport = { indexed: 0, unchanged: 0, removed: 0, failed: 0 };
    const known = new Map((await store.knowledgeFiles(BASE_SCOPE)).map((f) => [f.path, f]));
    const paths = await documentsIn(dir);
    for (const path of paths) {
      try {
        report[await indexFile(path, known.get(path), force)]++;
      } catch (err) {
        // A file that vanished or cannot be read now: the next pass tries again.
        report.failed++;
        logger.warn({ path, err: String(err) }, 'could not index a knowledge file');
      }
    }
    const present = new Set(paths);
    for (const path of known.keys()) {
      if (!present.has(path) && (await store.forgetKnowledgeFile(BASE_SCOPE, path))) report.removed++;
    }
    logger.info({ dir, ...report }, 'knowledge base indexed');
    return report;
  }

  const reindex = (options: { force?: boolean } = {}) => {
    running = running.catch(() => undefined).then(() => pass(options.force === true));
    return running;
  };

  return {
    async start() {
      const first = await reindex();
      try {
        watcher = watch(dir, { recursive: true }, () => {
          clearTimeout(timer);
          timer = setTimeout(() => {
            reindex().catch((err: unknown) => logger.error({ err }, 'could not re-index the knowledge base'));
          }, deps.debounceMs ?? 1000);
        });
        watcher.on('error', (err) => logger.warn({ err }, 'stopped watching the knowledge folder'));
      } catch (err) {
        logger.warn(
          { err },
          'cannot watch the knowledge folder; changes are read at the next start or re-index',
        );
      }
      return first;
    },
    reindex,
    stop() {
      clearTimeout(timer);
      watcher?.close();
    },
  };
}
