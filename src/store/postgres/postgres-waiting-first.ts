/** Runs a query with its parameters (`$1` the limit, `$2` the model when asked for). */
type Query<T> = (sql: string, params: unknown[]) => Promise<{ rows: T[] }>;

/**
 * Rows waiting for an embedding: those never embedded first (a partial index finds them), then those of
 * another model (a scan, after EMBEDDINGS_MODEL changed), looked for until none is left in this process.
 * `sql` holds `{waiting}` where the condition goes.
 */
export function waitingFirst() {
  const done = new Set<string>();
  return async <T>(query: Query<T>, sql: string, model: string, limit: number): Promise<T[]> => {
    const { rows } = await query(sql.replace('{waiting}', 'embedding_model IS NULL'), [limit]);
    if (rows.length >= limit || done.has(model)) return rows;
    const more = await query(sql.replace('{waiting}', 'embedding_model <> $2'), [limit - rows.length, model]);
    if (more.rows.length === 0) done.add(model);
    return [...rows, ...more.rows];
  };
}
