import { endianness } from 'node:os';

/** Whether a 32-bit word holds its first byte lowest (`scanPacked` reads bytes so). */
const LITTLE_ENDIAN = endianness() === 'LE';

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
  const dims = embeddings.find((e) => e.length > 0)?.length ?? 0;
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
export function scan<T>(
  chunk: VectorChunk,
  query: Float32Array,
  best: TopK<T>,
  itemAt: (i: number) => T,
): void {
  if (chunk.dims !== query.length) return;
  if (LITTLE_ENDIAN && chunk.dims % 4 === 0 && chunk.values.byteOffset % 4 === 0) {
    scanPacked(chunk, query, best, itemAt);
    return;
  }
  const { dims, values, scales } = chunk;
  for (let i = 0; i < chunk.count; i++) {
    const at = i * dims;
    let dot = 0;
    for (let d = 0; d < dims; d++) dot += query[d]! * values[at + d]!;
    const score = dot * scales[i]!;
    if (score > best.floor()) best.offer(itemAt(i), score);
  }
}

/**
 * `scan` for sizes in fours (every common model's): four components read at once as one 32-bit word, into
 * four sums the CPU overlaps; twice as fast as a byte at a time into one sum.
 */
function scanPacked<T>(
  chunk: VectorChunk,
  query: Float32Array,
  best: TopK<T>,
  itemAt: (i: number) => T,
): void {
  const { dims, scales } = chunk;
  const words = new Int32Array(chunk.values.buffer, chunk.values.byteOffset, chunk.values.length >> 2);
  const perVector = dims >> 2;
  for (let i = 0; i < chunk.count; i++) {
    const at = i * perVector;
    let a = 0;
    let b = 0;
    let c = 0;
    let e = 0;
    for (let k = 0, d = 0; k < perVector; k++, d += 4) {
      const w = words[at + k]!;
      // Little-endian: the first component is the lowest byte.
      a += query[d]! * ((w << 24) >> 24);
      b += query[d + 1]! * ((w << 16) >> 24);
      c += query[d + 2]! * ((w << 8) >> 24);
      e += query[d + 3]! * (w >> 24);
    }
    const score = (a + b + c + e) * scales[i]!;
    if (score > best.floor()) best.offer(itemAt(i), score);
  }
}
