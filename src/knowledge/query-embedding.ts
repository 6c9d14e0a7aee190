import type { Embedder } from '../core/llm/embedder.js';
import type { Logger } from '../core/logger.js';

/** After a query could not be embedded, searches go by words alone this long before trying again. */
const PAUSE_MS = 60_000;

/**
 * A search's query embedded within a short deadline, or undefined: the server failed (said in the log) or
 * failed within the last minute, and the search goes on by words alone.
 */
export function queryEmbedding(
  embedder: Embedder,
  logger: Logger,
  what: string,
  now: () => number = Date.now,
): (text: string) => Promise<Float32Array | undefined> {
  let pausedUntil = 0;
  return async (text) => {
    if (now() < pausedUntil) return undefined;
    try {
      return await embedder.embedQuery(text);
    } catch (err) {
      pausedUntil = now() + PAUSE_MS;
      logger.warn(
        { err: err instanceof Error ? err.message : String(err) },
        `${what}: could not search by meaning; searching by words alone for a minute`,
      );
      return undefined;
    }
  };
}
