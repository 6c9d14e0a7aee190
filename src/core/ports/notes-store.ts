/** A short fact to keep: about a channel (`subject` null) or about a person (their principal). */
export interface NewNote {
  /** The conversation it was made in (a channel note belongs to it; a person's follows them anywhere). */
  key: string;
  /** Null for a channel note; the principal the note is about for a person's note. */
  subject: string | null;
  text: string;
  /** Who asked to remember it (a principal), when known. */
  author: string | null;
  /**
   * An instruction to the bot (an admin's note, or one an admin promoted): shown as a system message.
   * Anyone else's note is data, quoted with its author. False when unset.
   */
  instruction?: boolean | undefined;
  /** A person's note made in a DM or private channel: shown only in that conversation. False when unset. */
  local?: boolean | undefined;
}

/** A stored note. */
export interface StoredNote extends NewNote {
  id: number;
  /** Milliseconds since the epoch. */
  createdAt: number;
  instruction: boolean;
  local: boolean;
}

/** Where notes persist. Each method is atomic on its own. */
export interface NotesStore {
  addNote(note: NewNote): Promise<StoredNote>;
  /**
   * The channel notes of `key` and, with a `subject`, that person's notes from any channel (but those kept
   * local to another conversation); oldest first.
   */
  notesFor(key: string, subject?: string | undefined): Promise<StoredNote[]>;
  /** Deletes one note; false when it was not there. */
  deleteNote(id: number): Promise<boolean>;
  /** Makes a note an instruction (an admin promoted it) or data again; false when it was not there. */
  setNoteInstruction(id: number, instruction: boolean): Promise<boolean>;
}
