import OpenAI from 'openai';
import { ModelError } from '../errors.js';
import { truncateToTokens } from '../memory/tokens.js';
import type { Embedder } from './embedder.js';
import { describeEndpoint, toModelError } from './openai-errors.js';

/** Texts sent in one request (OpenAI takes up to 2,048; smaller batches keep one failure cheap). */
export const EMBED_BATCH = 64;
/** Tokens of one text sent at most (OpenAI's embedding models take 8,192). */
const MAX_INPUT_TOKENS = 8000;

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
  const client = new OpenAI({
    apiKey: options.apiKey ?? 'not-needed',
    baseURL: options.baseURL ?? null,
    maxRetries: options.maxRetries,
    timeout: options.timeoutMs,
  });
  const batch = async (texts: readonly string[]): Promise<Float32Array[]> => {
    let response: OpenAI.Embeddings.CreateEmbeddingResponse;
    try {
      response = await client.embeddings.create({
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
    model: options.model,
    async embed(texts) {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += EMBED_BATCH) {
        vectors.push(...(await batch(texts.slice(start, start + EMBED_BATCH))));
      }
      return vectors;
    },
  };
}
