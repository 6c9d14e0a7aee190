/** The engines a schema is rendered for. */
export type Dialect = 'sqlite' | 'postgres';

/** SQL that only some engines have, by engine. */
export type PerDialect = Partial<Record<Dialect, string>>;

/**
 * A column in words both engines take: a neutral type first (TEXT, INTEGER, BIGINT for times in ms and
 * ids, JSON, BOOLEAN, IDENTITY for a generated key), then its constraints as SQL; or, for a column only
 * one engine has, that engine's own definition, with an optional SQL comment line above it.
 */
export type ColumnSpec = string | { only: Dialect; sql: string; note?: string };

/** An index: its columns, optionally only over the rows where a boolean column is false, or one engine's own. */
export type IndexSpec =
  | string
  | { columns: string; unless: string }
  | { only: Dialect; using: string; columns: string };

/** A table and the indexes created right after it. */
export interface Table {
  name: string;
  columns: Readonly<Record<string, ColumnSpec>>;
  primaryKey?: string;
  indexes?: Readonly<Record<string, IndexSpec>>;
}

/** One statement of a migration: a table, SQL the same in both engines, or SQL by engine. */
export type Step = Table | string | PerDialect;

/** A schema version: its statements, and how its released text ended (two spaces in, or at column 0). */
export interface Migration {
  steps: readonly Step[];
  tail: '  ' | '';
}
