import OpenAI from 'openai';
import { ModelError } from '../errors.js';
import { truncateToTokens } from '../memory/tokens.js';
import type { Embedder } from './embedder.js';
import { describeEndpoint, toModelError } from './openai-errors.js';

/** Texts sent in one request (OpenAI takes up to 2,048; smaller batches keep one failure cheap). */
export const EMBED_BATCH = 64;
/** Tokens of one text sent at most (OpenAI's embedding models take 8,192). */
const MAX_INPUT_TOKENS = 8000;
/** How long a search waits for its query's embedding before it goes on by words alone. */
export const QUERY_TIMEOUT_MS = 3000;

/** Settings of the embeddings client. */
export interface OpenAIEmbedderOptions {
  apiKey?: string | undefined;
  baseURL?: string | undefined;
  model: string;
  /** EMBEDDINGS_DIMENSIONS: asked of models that can shorten their vectors (text-embedding-3-*). */
  dimensions?: number | undefined;
  maxRetries: number;
  timeoutMs: number;
}

/** An Embedder over any OpenAI-compatible `/embeddings` endpoint (OpenAI, Ollama, vLLM, LM Studio…). */
export function createOpenAIEmbedder(options: OpenAIEmbedderOptions): Embedder {
  const endpoint = describeEndpoint(options.baseURL, options.model, 'EMBEDDINGS_BASE_URL');
  const clientWith = (maxRetries: number, timeout: number) =>
    new OpenAI({
      apiKey: options.apiKey ?? 'not-needed',
      baseURL: options.baseURL ?? null,
      maxRetries,
      timeout,
    });
  const client = clientWith(options.maxRetries, options.timeoutMs);
  const quick = clientWith(0, Math.min(QUERY_TIMEOUT_MS, options.timeoutMs));
  const batch = async (texts: readonly string[], via = client): Promise<Float32Array[]> => {
    let response: OpenAI.Embeddings.CreateEmbeddingResponse;
    try {
      response = await via.embeddings.create({
        model: options.model,
        input: texts.map((t) => truncateToTokens(t.trim() || '(empty)', MAX_INPUT_TOKENS)),
        ...(options.dimensions ? { dimensions: options.dimensions } : {}),
      });
    } catch (err) {
      throw toModelError(err, endpoint);
    }
    const vectors: Float32Array[] = [];
    const data = Array.isArray(response?.data) ? response.data : [];
    for (let i = 0; i < texts.length; i++) {
      const item = data.find((d) => d?.index === i) ?? data[i];
      const values = item?.embedding;
      if (!Array.isArray(values) || values.length === 0 || !values.every(Number.isFinite)) {
        throw new ModelError(
          'model_error',
          `The embeddings server at ${endpoint.base} answered without a usable vector for text ${i + 1} of ${texts.length}.`,
        );
      }
      vectors.push(Float32Array.from(values));
    }
    const dims = vectors[0]?.length;
    if (vectors.some((v) => v.length !== dims)) {
      throw new ModelError(
        'model_error',
        `The embeddings server at ${endpoint.base} answered vectors of different sizes.`,
      );
    }
    return vectors;
  };
  return {
    // Vectors of another size are another model's: a changed EMBEDDINGS_DIMENSIONS embeds everything again.
    model: options.dimensions ? `${options.model}@${options.dimensions}` : options.model,
    async embedQuery(text) {
      const [vector] = await batch([text], quick);
      return vector!;
    },
    async embed(texts) {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += EMBED_BATCH) {
        vectors.push(...(await batch(texts.slice(start, start + EMBED_BATCH))));
      }
      return vectors;
    },
  };
}
