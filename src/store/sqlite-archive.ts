import type Database from 'better-sqlite3';
import type { StorageError } from '../core/errors.js';
import { searchTerms, substringStem } from '../core/memory/recall-query.js';
import type { ArchivedTurn, ArchiveStore, ForgetReport } from '../core/ports/archive-store.js';
import type { NotesStore, StoredNote } from '../core/ports/notes-store.js';

/** What a usage record says instead of the person, once they asked to be forgotten. */
export const FORGOTTEN_USER = 'forgotten';

const ARCHIVE_COLUMNS = 'a.id, a.key, a.author, a.principal, a.question, a.answer, a.created_at AS createdAt';
const NOTE_COLUMNS = 'id, key, subject, text, author, created_at AS createdAt';
// The speaker column counts for half: a name matching is weaker evidence than the words.
const RANK = 'bm25(archive_fts, 0.5, 1.0, 1.0)';

/**
 * The FTS5 query for `query`: each term (trigram needs three characters) stemmed and quoted as a phrase,
 * joined by OR so that turns matching more of them rank higher. Terms hold only letters, digits and
 * `-_.:/` (recall-query.ts), so nothing in it can be FTS5 syntax; undefined when no term is left.
 */
export function ftsQuery(query: string): string | undefined {
  const phrases = [
    ...new Set(
      searchTerms(query)
        .map(substringStem)
        .filter((t) => [...t].length >= 3),
    ),
  ];
  return phrases.length > 0 ? phrases.map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ') : undefined;
}

/** The archive and notes of the SQLite store. */
export function sqliteArchive(
  db: Database.Database,
  fail: (what: string, err: unknown) => StorageError,
): ArchiveStore & NotesStore {
  const search = db.prepare<
    { match: string; key: string; from: number; to: number; speaker: string | null; limit: number },
    ArchivedTurn
  >(
    `SELECT ${ARCHIVE_COLUMNS}
       FROM archive_fts JOIN archive a ON a.id = archive_fts.rowid
      WHERE archive_fts MATCH @match AND a.key = @key AND a.created_at >= @from AND a.created_at < @to
        AND (@speaker IS NULL OR instr(lower(a.author), lower(@speaker)) > 0 OR a.principal = @speaker)
      ORDER BY ${RANK}, a.created_at DESC, a.id DESC
      LIMIT @limit`,
  );
  const page = db.prepare<[string, number, number], ArchivedTurn>(
    `SELECT ${ARCHIVE_COLUMNS} FROM archive a WHERE a.key = ? AND a.id > ? ORDER BY a.id LIMIT ?`,
  );
  const prune = db.prepare<[number]>('DELETE FROM archive WHERE created_at < ?');
  const insertNote = db.prepare<[string, string | null, string, string | null, number]>(
    'INSERT INTO notes (key, subject, text, author, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const selectNotes = db.prepare<[string, string | null], StoredNote>(
    `SELECT ${NOTE_COLUMNS} FROM notes
      WHERE (key = ? AND subject IS NULL) OR (subject IS NOT NULL AND subject = ?) ORDER BY id`,
  );
  const deleteNote = db.prepare<[number]>('DELETE FROM notes WHERE id = ?');

  const forget = db.transaction((principal: string, key: string | null, keptSince: number): ForgetReport => {
    const where = key === null ? '' : ' AND key = @key';
    const params = { principal, key, keptSince, forgotten: FORGOTTEN_USER };
    // Each statement is given exactly the parameters it names (better-sqlite3 refuses others).
    const run = (sql: string) =>
      db
        .prepare(sql)
        .run(Object.fromEntries(Object.entries(params).filter(([name]) => sql.includes(`@${name}`))));
    const turns = run(`DELETE FROM archive WHERE principal = @principal${where}`).changes;
    run(`DELETE FROM turns WHERE principal = @principal${where}`);
    const notes = run(
      `DELETE FROM notes WHERE (author = @principal OR subject = @principal)${where}`,
    ).changes;
    const usage =
      run(
        `UPDATE usage SET user_id = @forgotten, origin = NULL
            WHERE user_id = @principal AND at < @keptSince${where}`,
      ).changes + run(`DELETE FROM feedback WHERE user_id = @principal${where}`).changes;
    return { turns, notes, usage };
  });

  return {
    async searchArchive(s) {
      const match = ftsQuery(s.query);
      if (!match || s.limit < 1) return [];
      try {
        return search.all({
          match,
          key: s.key,
          from: s.from ?? 0,
          to: s.to ?? Number.MAX_SAFE_INTEGER,
          speaker: s.speaker?.trim() || null,
          limit: s.limit,
        });
      } catch (err) {
        throw fail('search the archive', err);
      }
    },
    async archivedTurns(key, afterId, batch) {
      try {
        return page.all(key, afterId, batch);
      } catch (err) {
        throw fail('read the archive', err);
      }
    },
    async forgetPerson({ principal, key, usageKeptSince }) {
      try {
        return forget.immediate(principal, key ?? null, usageKeptSince);
      } catch (err) {
        throw fail('forget a person', err);
      }
    },
    async pruneArchive(before) {
      try {
        return prune.run(before).changes;
      } catch (err) {
        throw fail('prune the archive', err);
      }
    },
    async addNote(note) {
      try {
        const createdAt = Date.now();
        const { lastInsertRowid } = insertNote.run(note.key, note.subject, note.text, note.author, createdAt);
        return { ...note, id: Number(lastInsertRowid), createdAt };
      } catch (err) {
        throw fail('store a note', err);
      }
    },
    async notesFor(key, subject) {
      try {
        return selectNotes.all(key, subject ?? null);
      } catch (err) {
        throw fail('read the notes', err);
      }
    },
    async deleteNote(id) {
      try {
        return deleteNote.run(id).changes === 1;
      } catch (err) {
        throw fail('delete a note', err);
      }
    },
  };
}
