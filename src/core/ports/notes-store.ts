/** A short fact to keep: about a channel (`subject` null) or about a person (their principal). */
export interface NewNote {
  /** The conversation it was made in (a channel note belongs to it; a person's follows them anywhere). */
  key: string;
  /** Null for a channel note; the principal the note is about for a person's note. */
  subject: string | null;
  text: string;
  /** Who asked to remember it (a principal), when known. */
  author: string | null;
}

/** A stored note. */
export interface StoredNote extends NewNote {
  id: number;
  /** Milliseconds since the epoch. */
  createdAt: number;
}

/** Where notes persist. Each method is atomic on its own. */
export interface NotesStore {
  addNote(note: NewNote): Promise<StoredNote>;
  /** The channel notes of `key` and, with a `subject`, that person's notes from any channel; oldest first. */
  notesFor(key: string, subject?: string | undefined): Promise<StoredNote[]>;
  /** Deletes one note; false when it was not there. */
  deleteNote(id: number): Promise<boolean>;
}
