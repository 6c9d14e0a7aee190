import type Database from 'better-sqlite3';

/**
 * How many rows of an FTS5 trigram index a term may be in: the count of its rarest trigram, read from the
 * index's own vocabulary (an fts5vocab table in `temp`, made here once per connection).
 */
export function trigramFrequency(db: Database.Database, fts: string): (term: string) => number {
  const vocab = `${fts}_vocab`;
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${vocab} USING fts5vocab(main, '${fts}', 'row')`);
  const docs = db.prepare<[string], { doc: number }>(`SELECT doc FROM temp.${vocab} WHERE term = ?`);
  return (term) => {
    const chars = [...term];
    let least = Number.POSITIVE_INFINITY;
    for (let i = 0; i + 3 <= chars.length; i++) {
      least = Math.min(least, docs.get(chars.slice(i, i + 3).join(''))?.doc ?? 0);
      if (least === 0) break;
    }
    return least;
  };
}
