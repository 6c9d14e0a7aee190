/** Turns texts into vectors (an OpenAI-compatible `/embeddings` endpoint, EMBEDDINGS_MODEL). */
export interface Embedder {
  /** The model's name: embeddings of different models are never compared. */
  readonly model: string;
  /** One vector per text, in order. Rejects with a ModelError saying what went wrong. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}
