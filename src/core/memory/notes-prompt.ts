import type { NotesStore, StoredNote } from '../ports/notes-store.js';
import { countTokens } from './tokens.js';

/** What {@link createNotesPrompt} needs. */
export interface NotesPromptDeps {
  notes: Pick<NotesStore, 'notesFor'>;
  /** NOTES_MAX_TOKENS: the notes' system message never exceeds it; the oldest are left out (not deleted). */
  maxTokens: number;
}

const HEADER = 'Notes kept for this conversation (people see and change them with /memory notes):';
const PERSON_HEADER = 'About the person asking now:';

/**
 * The agent's `notes` hook: the channel's notes and the asker's own, as one system message within the
 * budget, newest kept first when they do not all fit, shown oldest first; undefined when there are none.
 */
export function createNotesPrompt(deps: NotesPromptDeps) {
  return async (key: string, principal: string | undefined): Promise<string | undefined> => {
    const all = await deps.notes.notesFor(key, principal);
    return formatNotes(all, deps.maxTokens);
  };
}

/** The notes as the prompt shows them, within `maxTokens`. */
export function formatNotes(notes: readonly StoredNote[], maxTokens: number): string | undefined {
  let used = countTokens(HEADER) + countTokens(PERSON_HEADER) + 4;
  const kept = new Set<StoredNote>();
  for (let i = notes.length - 1; i >= 0; i--) {
    const note = notes[i]!;
    const tokens = countTokens(note.text) + 2;
    if (used + tokens > maxTokens) break;
    used += tokens;
    kept.add(note);
  }
  const channel = notes.filter((n) => kept.has(n) && n.subject === null).map((n) => `- ${n.text}`);
  const person = notes.filter((n) => kept.has(n) && n.subject !== null).map((n) => `- ${n.text}`);
  if (channel.length + person.length === 0) return undefined;
  const lines = [HEADER, ...channel];
  if (person.length > 0) lines.push(PERSON_HEADER, ...person);
  return lines.join('\n');
}
