import type Database from 'better-sqlite3';
import type { StorageError } from '../../core/errors.js';
import { searchTerms, substringStem } from '../../core/memory/recall-query.js';
import type { ArchivedTurn, ArchiveStore } from '../../core/ports/archive-store.js';
import type { NotesStore, StoredNote } from '../../core/ports/notes-store.js';
import { trigramFrequency } from './trigram-frequency.js';

const ARCHIVE_COLUMNS = 'a.id, a.key, a.author, a.principal, a.question, a.answer, a.created_at AS createdAt';
const NOTE_COLUMNS = 'id, key, subject, text, author, created_at AS createdAt, instruction, local';
// The speaker column counts for half: a name matching is weaker evidence than the words.
const RANK = 'bm25(archive_fts, 0.5, 1.0, 1.0)';

/** A notes row as SQLite returns it (booleans as 0/1). */
type NoteRow = Omit<StoredNote, 'instruction' | 'local'> & { instruction: number; local: number };
const noteOf = (row: NoteRow): StoredNote => ({
  ...row,
  instruction: row.instruction === 1,
  local: row.local === 1,
});

/** Documents the rare terms of a query may match together before the commoner ones stop narrowing it. */
export const NARROW_DOCS = 2000;

/** A term as an FTS5 phrase: quoted, so nothing in it is syntax (terms hold only letters, digits, `-_.:/`). */
const phrase = (term: string) => `"${term.replaceAll('"', '""')}"`;

/** The stemmed search terms of `query` (trigram needs three characters). */
export function ftsTerms(query: string): string[] {
  return [
    ...new Set(
      searchTerms(query)
        .map(substringStem)
        .filter((t) => [...t].length >= 3),
    ),
  ];
}

/**
 * The FTS5 query for `terms`: each a quoted phrase, joined by OR, so turns matching more of them rank
 * higher. With `frequency` (how many turns a term may be in), the match is narrowed to turns holding one of
 * the rarest terms (together in at most NARROW_DOCS turns) while every term still counts for the rank: bm25
 * over 90% of a channel (words like "date" or "deploy") is what made searches slow, and such a turn rarely
 * ranks first anyway. Undefined when no term is left.
 */
export function ftsQuery(query: string, frequency?: (term: string) => number): string | undefined {
  const terms = ftsTerms(query);
  if (terms.length === 0) return undefined;
  const all = terms.map(phrase).join(' OR ');
  if (!frequency || terms.length === 1) return all;
  const ranked = terms.map((t) => ({ t, n: frequency(t) })).sort((a, b) => a.n - b.n);
  const rare: string[] = [];
  let docs = 0;
  for (const { t, n } of ranked) {
    if (rare.length > 0 && docs + n > NARROW_DOCS) break;
    rare.push(t);
    docs += n;
  }
  return rare.length === terms.length ? all : `(${rare.map(phrase).join(' OR ')}) AND (${all})`;
}

/** The archive and notes of the SQLite store (forget-me is sqlite-forget.ts). */
export function sqliteArchive(
  db: Database.Database,
  fail: (what: string, err: unknown) => StorageError,
): Omit<ArchiveStore, 'forgetPerson'> & NotesStore {
  const frequency = trigramFrequency(db, 'archive_fts');
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
  const insertNote = db.prepare<[string, string | null, string, string | null, number, number, number]>(
    'INSERT INTO notes (key, subject, text, author, created_at, instruction, local) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const promote = db.prepare<[number, number]>('UPDATE notes SET instruction = ? WHERE id = ?');
  const selectNotes = db.prepare<[string, string | null, string], NoteRow>(
    `SELECT ${NOTE_COLUMNS} FROM notes
      WHERE (key = ? AND subject IS NULL) OR (subject IS NOT NULL AND subject = ? AND (local = 0 OR key = ?))
      ORDER BY id`,
  );
  const deleteNote = db.prepare<[number]>('DELETE FROM notes WHERE id = ?');

  return {
    async searchArchive(s) {
      if (s.limit < 1) return [];
      try {
        const match = ftsQuery(s.query, frequency);
        if (!match) return [];
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
        const instruction = note.instruction === true;
        const local = note.local === true;
        const { lastInsertRowid } = insertNote.run(
          note.key,
          note.subject,
          note.text,
          note.author,
          createdAt,
          instruction ? 1 : 0,
          local ? 1 : 0,
        );
        return { ...note, id: Number(lastInsertRowid), createdAt, instruction, local };
      } catch (err) {
        throw fail('store a note', err);
      }
    },
    async notesFor(key, subject) {
      try {
        return selectNotes.all(key, subject ?? null, key).map(noteOf);
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
    async setNoteInstruction(id, instruction) {
      try {
        return promote.run(instruction ? 1 : 0, id).changes === 1;
      } catch (err) {
        throw fail('change a note', err);
      }
    },
  };
}
