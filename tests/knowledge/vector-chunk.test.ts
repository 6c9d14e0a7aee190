import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scan, TopK, toChunk, unit } from '../../src/knowledge/vector-chunk.js';

const cosine = (a: Float32Array, b: Float32Array) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((x, i) => {
    dot += x * b[i]!;
    na += x * x;
    nb += b[i]! * b[i]!;
  });
  return dot / Math.sqrt(na * nb);
};

describe('in-memory vectors (8 bits a dimension)', () => {
  it('scores within 2% of exact cosine, for any size, and keeps the best first', () => {
    const vector = (dims: number) =>
      fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: dims, maxLength: dims });
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 23 })
          .chain((dims) => fc.tuple(vector(dims), fc.array(vector(dims), { minLength: 1, maxLength: 30 }))),
        ([q, rows]) => {
          const query = Float32Array.from(q);
          const embeddings = rows.map((r) => Float32Array.from(r));
          if (Math.hypot(...query) < 0.1 || embeddings.some((e) => Math.hypot(...e) < 0.1)) return;
          const { chunk } = toChunk(embeddings);
          const best = new TopK<number>(embeddings.length);
          scan(chunk, unit(query), best, (i) => i);
          expect(best.items).toHaveLength(embeddings.length);
          for (const { item, score } of best.items) {
            expect(Math.abs(score - cosine(query, embeddings[item]!))).toBeLessThan(0.02 * q.length ** 0.5);
          }
          const scores = best.items.map((b) => b.score);
          expect(scores).toEqual([...scores].sort((a, b) => b - a));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('leaves out vectors of another size, and a query of another size finds nothing', () => {
    const { chunk, kept } = toChunk([
      new Float32Array([1, 0]),
      new Float32Array([1, 0, 0]),
      new Float32Array([0, 1]),
    ]);
    expect(kept).toEqual([0, 2]);
    const best = new TopK<number>(5);
    scan(chunk, unit(new Float32Array([1, 0, 0])), best, (i) => i);
    expect(best.items).toEqual([]);
    scan(chunk, unit(new Float32Array([0, 2])), best, (i) => kept[i]!);
    expect(best.items.map((b) => b.item)).toEqual([2, 0]);
  });
});
