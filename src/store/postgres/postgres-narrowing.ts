import type { PostgresDb } from './postgres-db.js';

/** Share of a table the rare terms of a query may match together before commoner ones stop narrowing it. */
export const NARROW_SHARE = 0.05;
/** How long the lexeme statistics (pg_stats, kept by ANALYZE) are reused. */
const STATS_MS = 5 * 60_000;

/**
 * For a table with a `search` tsvector: the terms a search must match one of, the rarest, together in at
 * most NARROW_SHARE of the rows (by the planner's lexeme statistics), so ranking reads few rows; every term
 * still counts for the rank. With no statistics yet (no ANALYZE), `withoutStats` decides, else all of them.
 */
export function lexemeNarrowing(
  db: PostgresDb,
  table: string,
  withoutStats?: (terms: string[]) => Promise<string[]>,
): (terms: string[]) => Promise<string[]> {
  let stats: { at: number; freq: Promise<Map<string, number>> } | undefined;
  const commonLexemes = () => {
    if (!stats || Date.now() - stats.at > STATS_MS) {
      const freq = db
        .query<{ e: string[] | null; f: number[] | null }>(
          `read the ${table} statistics`,
          `SELECT most_common_elems::text::text[] AS e, most_common_elem_freqs::float8[] AS f FROM pg_stats
            WHERE schemaname = current_schema() AND tablename = $1 AND attname = 'search'`,
          [table],
        )
        .then(({ rows }) => new Map((rows[0]?.e ?? []).map((e, i) => [e, rows[0]?.f?.[i] ?? 0])))
        .catch(() => new Map<string, number>());
      stats = { at: Date.now(), freq };
    }
    return stats.freq;
  };

  return async (terms) => {
    if (terms.length < 2) return terms;
    const freq = await commonLexemes();
    if (freq.size === 0) return withoutStats ? withoutStats(terms) : terms;
    const { rows } = await db.query<{ lexemes: string[] }>(
      'read the query words',
      "SELECT array(SELECT unnest(tsvector_to_array(to_tsvector('english', t)))) AS lexemes FROM unnest($1::text[]) t",
      [terms.map((t) => t.replace(/[()<>-]/g, ' '))],
    );
    const share = (i: number) => {
      const lexemes = rows[i]?.lexemes ?? [];
      // A stop word alone has no lexeme: it would match nothing, so it narrows nothing either.
      return lexemes.length === 0 ? 1 : Math.min(...lexemes.map((l) => freq.get(l) ?? 0));
    };
    const ranked = terms.map((t, i) => ({ t, n: share(i) })).sort((a, b) => a.n - b.n);
    const rare: string[] = [];
    let total = 0;
    for (const { t, n } of ranked) {
      if (rare.length > 0 && total + n > NARROW_SHARE) break;
      rare.push(t);
      total += n;
    }
    return rare;
  };
}
