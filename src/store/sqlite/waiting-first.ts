import type Database from 'better-sqlite3';

/**
 * Rows waiting for an embedding: those never embedded first (a partial index finds them), then those of
 * another model (a scan, after EMBEDDINGS_MODEL changed), looked for until none is left in this process.
 */
export function waitingFirst<T>(
  fresh: Database.Statement<[number], T>,
  others: Database.Statement<[string, number], T>,
): (model: string, limit: number) => T[] {
  const done = new Set<string>();
  return (model, limit) => {
    const rows = fresh.all(limit);
    if (rows.length >= limit || done.has(model)) return rows;
    const more = others.all(model, limit - rows.length);
    if (more.length === 0) done.add(model);
    return [...rows, ...more];
  };
}
