import { z } from 'zod';
import type { NotesStore } from '../ports/notes-store.js';
import { defineTool, type Tool, ToolInputError } from './define-tool.js';

/** The longest note, in characters: notes are short facts, not documents. */
export const MAX_NOTE_CHARS = 300;
/** Notes one conversation (or one person) may have; past it, people must forget some first. */
export const MAX_NOTES = 200;

/** What `remember` needs: where notes are kept. */
export interface RememberDeps {
  notes: Pick<NotesStore, 'addNote' | 'notesFor'>;
}

/** `remember`: keeps a short fact about this conversation, or about the person asking (it follows them). */
export function createRememberTool(deps: RememberDeps): Tool {
  return defineTool({
    name: 'remember',
    description:
      'Keeps a short fact for later conversations, when someone asks you to remember it: about this channel ' +
      '("deploys happen on Tuesdays") or about the person asking ("prefers metric units"; it follows them to ' +
      'other channels). People can see and delete notes with /memory notes.',
    input: z.object({
      text: z.string().trim().min(1).max(MAX_NOTE_CHARS).describe('the fact, in one short sentence'),
      about: z
        .enum(['channel', 'me'])
        .optional()
        .describe('"channel" (default) for this conversation, "me" for the person asking'),
    }),
    async execute({ text, about }, context) {
      if (!context.key) throw new ToolInputError('remember works only inside a conversation.');
      const subject = about === 'me' ? context.principal : null;
      if (subject === undefined)
        throw new ToolInputError('I do not know who is asking here; save it for the channel.');
      const existing = await deps.notes.notesFor(context.key, subject ?? undefined);
      const mine = existing.filter((n) => n.subject === subject);
      const clean = text.replace(/\s+/g, ' ');
      if (mine.some((n) => n.text.toLowerCase() === clean.toLowerCase())) return 'Already noted.';
      if (mine.length >= MAX_NOTES) {
        throw new ToolInputError(
          `There are already ${MAX_NOTES} notes; someone must /memory forget some first.`,
        );
      }
      // An admin's note is an instruction; anyone else's is what they said, quoted with their name.
      const instruction = (await context.askerIsAdmin?.().catch(() => false)) === true;
      // Said in private, a note about the asker stays in this conversation.
      const local = subject !== null && context.privatePlace === true;
      await deps.notes.addNote({
        key: context.key,
        subject,
        text: clean,
        author: context.principal ?? null,
        instruction,
        local,
      });
      return subject
        ? local
          ? 'Noted for the person asking, in this conversation only (it was said in private).'
          : 'Noted for the person asking.'
        : 'Noted for this channel.';
    },
  });
}
