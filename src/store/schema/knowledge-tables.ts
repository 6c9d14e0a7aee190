import type { Table } from './schema-types.js';

/** Documents indexed for `search_knowledge` (migration 18): the knowledge base's and those shared in channels. */
export const KNOWLEDGE_FILES: Table = {
  name: 'knowledge_files',
  columns: {
    scope: 'TEXT NOT NULL',
    path: 'TEXT NOT NULL',
    size: 'BIGINT NOT NULL',
    modified_at: 'BIGINT NOT NULL',
    indexed_at: 'BIGINT NOT NULL',
    passages: 'INTEGER NOT NULL',
    error: 'TEXT',
    shared_by: 'TEXT',
  },
  primaryKey: 'scope, path',
  indexes: { knowledge_files_by_sharer: 'shared_by' },
};

/** The passages of those documents; Postgres keeps its full-text vector in the row. */
export const KNOWLEDGE_PASSAGES: Table = {
  name: 'knowledge_passages',
  columns: {
    // SQLite's full-text index points at passages by this id; Postgres needs none (its vector is in the row).
    id: { only: 'sqlite', sql: 'INTEGER PRIMARY KEY AUTOINCREMENT' },
    scope: 'TEXT NOT NULL',
    path: 'TEXT NOT NULL',
    ordinal: 'INTEGER NOT NULL',
    heading: 'TEXT',
    page: 'INTEGER',
    text: 'TEXT NOT NULL',
    search: {
      only: 'postgres',
      sql: `tsvector GENERATED ALWAYS AS (
      setweight(to_tsvector('english', coalesce(heading, '')), 'A') || to_tsvector('english', text)
    ) STORED`,
    },
  },
  indexes: { knowledge_passages_search: { only: 'postgres', using: 'gin', columns: 'search' } },
};

/** A passage is its file's n-th: copied once however often `npm run migrate` runs. */
export const KNOWLEDGE_PASSAGE_KEY =
  'CREATE UNIQUE INDEX knowledge_passages_by_file ON knowledge_passages (scope, path, ordinal);';

/** SQLite searches passages with FTS5's trigram tokenizer, as recall does (see recall-migration.ts). */
export const SQLITE_KNOWLEDGE_SEARCH = `CREATE VIRTUAL TABLE knowledge_fts USING fts5(
    heading, text, content = 'knowledge_passages', content_rowid = 'id', tokenize = 'trigram remove_diacritics 1'
  );
  CREATE TRIGGER knowledge_fts_insert AFTER INSERT ON knowledge_passages BEGIN
    INSERT INTO knowledge_fts (rowid, heading, text) VALUES (new.id, coalesce(new.heading, ''), new.text);
  END;
  CREATE TRIGGER knowledge_fts_delete AFTER DELETE ON knowledge_passages BEGIN
    INSERT INTO knowledge_fts (knowledge_fts, rowid, heading, text)
    VALUES ('delete', old.id, coalesce(old.heading, ''), old.text);
  END;`;

/**
 * Migration 19: SQLite searches passages by word (Porter stems; unspaced scripts as bigrams, written by the
 * store) instead of by trigram: a trigram phrase reads every position of every common trigram, which cost
 * 300 ms a search at 100,000 passages. Contentless, so the text is kept once; the store fills it.
 */
export const SQLITE_KNOWLEDGE_WORDS = `DROP TRIGGER knowledge_fts_insert;
  DROP TRIGGER knowledge_fts_delete;
  DROP TABLE knowledge_fts;
  CREATE VIRTUAL TABLE knowledge_words USING fts5(
    heading, text, content = '', contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2'
  );
  CREATE TRIGGER knowledge_words_delete AFTER DELETE ON knowledge_passages BEGIN
    DELETE FROM knowledge_words WHERE rowid = old.id;
  END;`;
