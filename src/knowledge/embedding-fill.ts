import { ModelError } from '../core/errors.js';
import type { Embedder } from '../core/llm/embedder.js';
import type { Logger } from '../core/logger.js';

/** After a failure, what waits is embedded again this much later. */
const RETRY_MS = 60_000;

/** Embeds what waits, one batch after another, in the background; one fill at a time. */
export interface EmbeddingFill {
  /** Starts filling, or asks the running fill to look again when it is done. */
  fill(): Promise<void>;
  /** Resolves when nothing is being filled (done, or failed and to be retried later). */
  idle(): Promise<void>;
  stop(): void;
}

/**
 * A fill that runs `batch` (embeds one batch, resolving to how many it embedded; 0 when nothing waits)
 * until nothing waits. A failure is logged once (until a batch succeeds again) and retried a minute later;
 * with `everyMs`, it also looks for new work that often.
 */
export function embeddingFill(
  batch: () => Promise<number>,
  logger: Logger,
  what: string,
  everyMs?: number,
): EmbeddingFill {
  let filling: Promise<void> | undefined;
  let again = false;
  let failing = false;
  let retry: NodeJS.Timeout | undefined;
  const poll = everyMs ? setInterval(() => void fill(), everyMs) : undefined;
  poll?.unref();

  function fill(): Promise<void> {
    if (filling) {
      again = true;
      return filling;
    }
    filling = (async () => {
      do {
        again = false;
        try {
          while ((await batch()) > 0) {
            if (failing) logger.info(`${what}: embeddings are being made again`);
            failing = false;
          }
        } catch (err) {
          if (!failing) {
            logger.warn(
              { err: err instanceof Error ? err.message : String(err) },
              `${what}: could not make embeddings; searching by words alone until they can be made`,
            );
          }
          failing = true;
          clearTimeout(retry);
          retry = setTimeout(() => void fill(), RETRY_MS);
          retry.unref();
          return;
        }
      } while (again);
    })().finally(() => {
      filling = undefined;
    });
    return filling;
  }

  return {
    fill,
    async idle() {
      while (filling) await filling;
    },
    stop() {
      clearTimeout(retry);
      if (poll) clearInterval(poll);
    },
  };
}

/** Whether the server refused the request for what it held (one text it cannot take), not for who asked. */
const refusedInput = (err: unknown) =>
  err instanceof ModelError && (err.status === 400 || err.status === 413 || err.status === 422);

/**
 * The texts' embeddings. When the server refuses the batch for what it holds, each text is tried alone; one
 * it still refuses gets an empty embedding (kept, so it is not asked for again; found by words, never by
 * meaning). When it refuses them all, a short probe tells the texts (a small context: they are marked) from
 * the setting (a model or EMBEDDINGS_DIMENSIONS it does not take: that rejects, and the batch is tried again
 * later, as after any other failure).
 */
export async function embedEach(
  embedder: Embedder,
  texts: readonly string[],
  logger: Logger,
): Promise<Float32Array[]> {
  let refused: unknown;
  try {
    return await embedder.embed(texts);
  } catch (err) {
    if (!refusedInput(err)) throw err;
    refused = err;
  }
  const vectors: Float32Array[] = [];
  for (const text of texts.length > 1 ? texts : []) {
    try {
      vectors.push(...(await embedder.embed([text])));
    } catch (err) {
      if (!refusedInput(err)) throw err;
      refused = err;
      vectors.push(new Float32Array(0));
    }
  }
  if (vectors.every((v) => v.length === 0)) {
    await embedder.embed(['ok']).catch(() => {
      throw refused;
    });
    vectors.splice(0, vectors.length, ...texts.map(() => new Float32Array(0)));
  }
  const skipped = vectors.filter((v) => v.length === 0).length;
  if (skipped > 0) {
    logger.warn(
      { skipped, err: refused instanceof Error ? refused.message : String(refused) },
      'the embeddings server refused some texts; they are found by words only',
    );
  }
  return vectors;
}
