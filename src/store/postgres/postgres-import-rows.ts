import type { ExportedRow } from '../sqlite/sqlite-export-tables.js';
import type { PostgresDb } from './postgres-db.js';

/** Copies rows into one Postgres table as SQLite held them; resolves with how many were new. */
export type RowImporter = (table: string, rows: readonly ExportedRow[]) => Promise<number>;

/**
 * A {@link RowImporter} on `db`. Each value goes over as text and is cast to its Postgres column's type (0/1
 * to boolean, JSON text to jsonb); a row whose primary key (or another unique key) is there already is left
 * as it is.
 */
export function rowImporter(db: PostgresDb): RowImporter {
  const types = new Map<string, Map<string, string>>();
  const typesOf = async (table: string) => {
    let known = types.get(table);
    if (!known) {
      const { rows } = await db.query<{ name: string; type: string }>(
        'read a table’s columns',
        `SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute
          WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped`,
        [table],
      );
      known = new Map(rows.map((r) => [r.name, r.type]));
      types.set(table, known);
    }
    return known;
  };
  return async (table, rows) => {
    if (rows.length === 0) return 0;
    const target = await typesOf(table);
    const columns = Object.keys(rows[0]!);
    const missing = columns.filter((c) => !target.has(c));
    if (missing.length > 0) throw new Error(`Postgres table ${table} has no column ${missing.join(', ')}`);
    const names = columns.map((c) => `"${c}"`).join(', ');
    const casts = columns.map((c, i) => `c${i}::${target.get(c)}`).join(', ');
    const arrays = columns.map((_, i) => `$${i + 1}::text[]`).join(', ');
    const aliases = columns.map((_, i) => `c${i}`).join(', ');
    const inserted = await db.query(
      `copy ${table}`,
      `INSERT INTO "${table}" (${names})
       SELECT ${casts} FROM unnest(${arrays}) WITH ORDINALITY AS s(${aliases}, n) ORDER BY n
       ON CONFLICT DO NOTHING`,
      columns.map((c) => rows.map((r) => asText(r[c]))),
    );
    return inserted.rowCount ?? 0;
  };
}

/** A value as the text its column's cast reads; bytes (embeddings) in bytea's hex form. */
const asText = (value: unknown): string | null => {
  if (value === null || value === undefined) return null;
  if (value instanceof Uint8Array)
    return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
  return String(value);
};
