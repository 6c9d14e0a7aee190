/** Reciprocal-rank fusion's constant (Cormack et al. 2009): a hit's share is 1 / (K + its rank). */
export const RRF_K = 60;

/**
 * Rankings fused by reciprocal rank: an item several find ranks above one only one finds. Items are the same
 * when `keyOf` says so; `tie` orders equal scores (else the first seen goes first).
 */
export function fuseByRank<T>(
  rankings: readonly (readonly T[])[],
  keyOf: (item: T) => string | number,
  tie?: (a: T, b: T) => number,
): T[] {
  const scores = new Map<string | number, { item: T; score: number }>();
  for (const ranking of rankings) {
    ranking.forEach((item, rank) => {
      const key = keyOf(item);
      const entry = scores.get(key) ?? { item, score: 0 };
      entry.score += 1 / (RRF_K + rank + 1);
      scores.set(key, entry);
    });
  }
  return [...scores.values()]
    .sort((a, b) => b.score - a.score || (tie ? tie(a.item, b.item) : 0))
    .map((e) => e.item);
}
