/** Turns texts into vectors (an OpenAI-compatible `/embeddings` endpoint, EMBEDDINGS_MODEL). */
export interface Embedder {
  /** What its vectors are kept under: the model's name, and the size asked for (`model@256`) when one is. */
  readonly model: string;
  /** One vector per text, in order. Rejects with a ModelError saying what went wrong. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** A search's one text, within a short deadline and without retries: a search must not wait on it. */
  embedQuery(text: string): Promise<Float32Array>;
}
