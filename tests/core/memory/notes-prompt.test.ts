import { describe, expect, it } from 'vitest';
import { formatNotes } from '../../../src/core/memory/notes-prompt.js';
import { countTokens } from '../../../src/core/memory/tokens.js';
import type { StoredNote } from '../../../src/core/ports/notes-store.js';

const note = (id: number, text: string, subject: string | null = null): StoredNote => ({
  id,
  key: 'k',
  subject,
  text,
  author: null,
  createdAt: id,
});

describe('notes in the prompt', () => {
  it('shows channel notes, then the asker’s, oldest first', () => {
    const text = formatNotes(
      [note(1, 'deploys on Tuesdays'), note(2, 'prefers metric', 'web:a'), note(3, 'uses UTC')],
      500,
    );
    expect(text).toBe(
      'Notes kept for this conversation (people see and change them with /memory notes):\n' +
        '- deploys on Tuesdays\n- uses UTC\nAbout the person asking now:\n- prefers metric',
    );
    expect(formatNotes([], 500)).toBeUndefined();
  });

  it('drops the oldest from the prompt past NOTES_MAX_TOKENS, never exceeding it', () => {
    const notes = Array.from({ length: 100 }, (_, i) => note(i, `fact number ${i} about the project`));
    const text = formatNotes(notes, 120)!;
    expect(countTokens(text)).toBeLessThanOrEqual(120);
    expect(text).toContain('fact number 99 ');
    expect(text).not.toContain('fact number 0 ');
  });
});
