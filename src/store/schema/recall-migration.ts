import { ARCHIVE, NOTES } from './memory-tables.js';
import { migration } from './render-migrations.js';

// SQLite searches with FTS5's trigram tokenizer: it finds code identifiers and error codes inside longer
// words (`CONNRESET` in `ECONNRESET`, `parse_config` in `parse_config_v2`) and word forms by their shared
// stem, at about three times the index size of unicode61 (see docs/memory.md).
const SQLITE_SEARCH = `CREATE VIRTUAL TABLE archive_fts USING fts5(
    author, question, answer, content = 'archive', content_rowid = 'id', tokenize = 'trigram remove_diacritics 1'
  );
  CREATE TRIGGER archive_fts_insert AFTER INSERT ON archive BEGIN
    INSERT INTO archive_fts (rowid, author, question, answer) VALUES (new.id, new.author, new.question, new.answer);
  END;
  CREATE TRIGGER archive_fts_delete AFTER DELETE ON archive BEGIN
    INSERT INTO archive_fts (archive_fts, rowid, author, question, answer)
    VALUES ('delete', old.id, old.author, old.question, old.answer);
  END;`;

// Postgres searches a tsvector (english: stems word forms) under a GIN index. pg_trgm, where it can be
// installed (it needs CREATE on the database; managed services mostly allow it), adds a trigram index so
// ids and error codes are also found inside longer words; without it, recall works on whole words only.
const PG_TRIGRAMS = `DO $$
  DECLARE ns TEXT;
  BEGIN
    BEGIN
      CREATE EXTENSION IF NOT EXISTS pg_trgm;
    EXCEPTION WHEN OTHERS THEN
      RAISE NOTICE 'pg_trgm is not available (%); recall matches whole words only', SQLERRM;
    END;
    SELECT n.nspname INTO ns FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
     WHERE e.extname = 'pg_trgm';
    IF ns IS NOT NULL THEN
      EXECUTE format('CREATE INDEX archive_trgm ON archive USING gin ((question || %L || answer) %I.gin_trgm_ops)', ' ', ns);
    END IF;
  END $$;`;

/**
 * Migration 7, recall. Every turn is archived when stored (never only when folded: a crash loses nothing);
 * turns still verbatim are archived now, those folded before live on only in the summary. Notes: per
 * channel (subject NULL) or per person (subject = their principal).
 */
export const RECALL_MIGRATION = migration(
  'ALTER TABLE turns ADD COLUMN principal TEXT;',
  ARCHIVE,
  { sqlite: SQLITE_SEARCH },
  `INSERT INTO archive (id, key, author, principal, question, answer, created_at)
    SELECT id, key, author, NULL, question, answer, created_at FROM turns;`,
  NOTES,
  { postgres: PG_TRIGRAMS },
);
