import { isIdentifierLike, searchTerms, termWords } from '../../core/memory/recall-query.js';
import type { ArchivedTurn, ArchiveStore } from '../../core/ports/archive-store.js';
import type { NotesStore, StoredNote } from '../../core/ports/notes-store.js';
import type { PostgresDb } from './postgres-db.js';
import { lexemeNarrowing } from './postgres-narrowing.js';

const ARCHIVE_COLUMNS = 'id, key, author, principal, question, answer, created_at AS "createdAt"';
const NOTE_COLUMNS = 'id, key, subject, text, author, created_at AS "createdAt", instruction, local';
// The expression the optional trigram index (migration 7) is built on; a query must spell it the same.
const BODY = "(question || ' ' || answer)";

/**
 * The search: candidates from the text index (and, with `substring`, each trigram index scan), then the
 * channel's among them, ranked. Run with the planner's table scans and hash and merge joins off (see
 * searchArchive), so the candidates come from the indexes and each is fetched by its id.
 */
const searchSql = (substring: string) =>
  `WITH q AS (SELECT to_tsquery('english', $2) AS q),
        candidates AS (SELECT id FROM archive WHERE search @@ to_tsquery('english', $8)${substring})
   SELECT ${ARCHIVE_COLUMNS}
     FROM archive JOIN candidates USING (id), q
    WHERE key = $1 AND created_at >= $3 AND created_at < $4
      AND ($5::text IS NULL OR strpos(lower(author), lower($5)) > 0 OR principal = $5)
    ORDER BY ts_rank(search, q.q, 1)
             + 0.1 * (SELECT count(*) FROM unnest($6::text[]) p WHERE ${BODY} ILIKE p) DESC,
             created_at DESC, id DESC
    LIMIT $7`;

/** A query's terms as tsquery pieces: each term's words (letters and digits only, so never syntax) as a phrase. */
export function tsTerms(query: string): string[] {
  return searchTerms(query)
    .map(termWords)
    .filter((words) => words.length > 0)
    .map((words) => (words.length === 1 ? words[0]! : `(${words.join(' <-> ')})`));
}

/** The `to_tsquery` text for `query`: its terms joined by `|`; empty when no term is left. */
export function tsQuery(query: string): string {
  return tsTerms(query).join(' | ');
}

/** ILIKE patterns for the terms that look like ids or code, `%`, `_` and `\` escaped. */
export function likePatterns(query: string): string[] {
  return searchTerms(query)
    .filter(isIdentifierLike)
    .map((t) => `%${t.replace(/[\\%_]/g, '\\$&')}%`);
}

/** The archive and notes of the Postgres store (forget-me is postgres-forget.ts). */
export function postgresArchive(db: PostgresDb): Omit<ArchiveStore, 'forgetPerson'> & NotesStore {
  let trigram: Promise<boolean> | undefined;
  // Whether migration 7 could build the trigram index here (pg_trgm available); asked once.
  const hasTrigram = () => {
    trigram ??= db
      .query<{ ok: boolean }>(
        'look for the trigram index',
        "SELECT to_regclass('archive_trgm') IS NOT NULL AS ok",
      )
      .then((r) => r.rows[0]?.ok === true)
      .catch(() => {
        trigram = undefined;
        return false;
      });
    return trigram;
  };

  const narrowed = lexemeNarrowing(db, 'archive');

  return {
    async searchArchive(s) {
      const terms = tsTerms(s.query);
      const text = terms.join(' | ');
      const patterns = (await hasTrigram()) ? likePatterns(s.query) : [];
      if ((!text && patterns.length === 0) || s.limit < 1) return [];
      const narrow = (await narrowed(terms)).join(' | ');
      // Each index apart: an OR of them in one WHERE let the planner read every turn of the channel instead.
      const substring = patterns
        .map((_, i) => ` UNION SELECT id FROM archive WHERE ${BODY} ILIKE $${i + 9}`)
        .join('');
      const params = [
        s.key,
        text,
        s.from ?? 0,
        s.to ?? Number.MAX_SAFE_INTEGER,
        s.speaker?.trim() || null,
        patterns,
        s.limit,
        narrow,
        ...patterns,
      ];
      // The candidates always come from the indexes and are fetched by id. GIN indexes take new rows into a
      // pending list (fastupdate) that VACUUM merges in; until then every search reads it (up to 4 MB: a
      // few ms), and the planner counts it in the index's cost: after a few thousand new turns it chose to
      // scan the table (ILIKE on every turn: 60-90 ms at 20,000 turns) over index scans; and where it
      // overestimated the candidates it hash-joined them with every turn of the channel (130 ms at 200,000).
      // A nested loop over the candidates (the narrowing keeps them to a few % of the turns) is a few ms.
      const rows = await db.transaction(
        'search the archive',
        async (sql) => {
          await sql(
            'SET LOCAL enable_seqscan = off; SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off',
          );
          return (await sql<ArchivedTurn>(searchSql(substring), params)).rows;
        },
        'read',
      );
      return rows;
    },
    async archivedTurns(key, afterId, batch) {
      const { rows } = await db.query<ArchivedTurn>(
        'read the archive',
        `SELECT ${ARCHIVE_COLUMNS} FROM archive WHERE key = $1 AND id > $2 ORDER BY id LIMIT $3`,
        [key, afterId, batch],
      );
      return rows;
    },
    async pruneArchive(before) {
      const deleted = await db.query('prune the archive', 'DELETE FROM archive WHERE created_at < $1', [
        before,
      ]);
      return deleted.rowCount ?? 0;
    },
    async addNote(note) {
      const { rows } = await db.query<{ id: number; createdAt: number }>(
        'store a note',
        `INSERT INTO notes (key, subject, text, author, created_at, instruction, local)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id, created_at AS "createdAt"`,
        [
          note.key,
          note.subject,
          note.text,
          note.author,
          Date.now(),
          note.instruction === true,
          note.local === true,
        ],
      );
      return { ...note, ...rows[0]!, instruction: note.instruction === true, local: note.local === true };
    },
    async notesFor(key, subject) {
      const { rows } = await db.query<StoredNote>(
        'read the notes',
        `SELECT ${NOTE_COLUMNS} FROM notes
          WHERE (key = $1 AND subject IS NULL) OR (subject IS NOT NULL AND subject = $2 AND (NOT local OR key = $1))
          ORDER BY id`,
        [key, subject ?? null],
      );
      return rows;
    },
    async deleteNote(id) {
      const deleted = await db.query('delete a note', 'DELETE FROM notes WHERE id = $1', [id]);
      return deleted.rowCount === 1;
    },
    async setNoteInstruction(id, instruction) {
      const changed = await db.query('change a note', 'UPDATE notes SET instruction = $1 WHERE id = $2', [
        instruction,
        id,
      ]);
      return changed.rowCount === 1;
    },
  };
}
