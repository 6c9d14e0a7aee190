import type { Asker } from '../governance/asker.js';
import { principalLabel } from '../governance/principal.js';
import { type ArchiveStore, FORGOTTEN_KINDS, type ForgetReport } from '../ports/archive-store.js';
import type { NotesStore, StoredNote } from '../ports/notes-store.js';
import { MAX_NOTE_CHARS } from '../tools/remember.js';

const DAY_MS = 86_400_000;
/**
 * Usage records this recent keep naming the person after forget-me: limits and budgets (a day, in any
 * time zone) still count them, so forgetting oneself never resets a budget. Older ones are anonymised.
 */
export const USAGE_KEPT_MS = 2 * DAY_MS;

/** What the `/memory notes|remember|forget|forget-me` commands need. */
export interface MemoryCommandsDeps {
  store: Pick<ArchiveStore, 'forgetPerson'> & NotesStore;
  /** Whether the asker administers the bot (the governor's check); the platform's word when unset. */
  isAdmin?: ((asker: Asker) => Promise<boolean>) | undefined;
  now?: () => number;
}

/** The memory commands people use to see and erase what the bot keeps about them; each returns the reply. */
export interface MemoryCommands {
  /** `/memory notes`: the channel's notes and the asker's own, numbered. */
  notes(asker: Asker, key: string): Promise<string>;
  /**
   * `/memory remember <text>`: a channel note; `me: <text>` makes it the asker's own (kept in this
   * conversation when said in private), `--everywhere <text>` the asker's own wherever they go. An admin's
   * note is an instruction; anyone else's is data, quoted with its author.
   */
  remember(asker: Asker, key: string, text: string): Promise<string>;
  /** `/memory promote <n>` / `/memory demote <n>` (admins): note n becomes an instruction, or data again. */
  promote(asker: Asker, key: string, n: number, instruction: boolean): Promise<string>;
  /** `/memory forget <n>`: deletes note n of the list; one's own, or (admins) any of the channel's. */
  forget(asker: Asker, key: string, n: number): Promise<string>;
  /** `/memory forget-me [--everywhere] [principal]`: every row naming the asker (or, for admins, someone). */
  forgetMe(
    asker: Asker,
    key: string,
    options: { everywhere: boolean; principal?: string | undefined },
  ): Promise<string>;
  /** Parses and runs `/memory <sub> …`; undefined when `args` names none of these. */
  run(asker: Asker, key: string, args: string): Promise<string> | undefined;
}

/** Creates the memory commands over the store. */
export function createMemoryCommands(deps: MemoryCommandsDeps): MemoryCommands {
  const now = deps.now ?? Date.now;
  const admin = async (asker: Asker) =>
    deps.isAdmin ? deps.isAdmin(asker) : (await Promise.resolve(asker.platformAdmin)) === true;
  // The notes an asker sees, numbered from 1 in this order: the channel's, then their own.
  const visible = async (asker: Asker, key: string): Promise<StoredNote[]> => {
    const all = await deps.store.notesFor(key, asker.principal);
    return [...all.filter((n) => n.subject === null), ...all.filter((n) => n.subject !== null)];
  };

  const commands: MemoryCommands = {
    async notes(asker, key) {
      const notes = await visible(asker, key);
      if (notes.length === 0) return 'No notes are kept here. Add one with /memory remember <text>.';
      const lines = notes.map((n, i) => {
        const marks = [
          n.subject === null ? '' : '(about you) ',
          n.instruction ? '[instruction] ' : `[data, by ${n.author ? principalLabel(n.author) : 'someone'}] `,
          n.local ? '(only here) ' : '',
        ].join('');
        return `${i + 1}. ${marks}${n.text} — ${new Date(n.createdAt).toISOString().slice(0, 10)}`;
      });
      return (
        'Notes kept here (/memory forget <n> removes one; admins: /memory promote <n> makes one an ' +
        `instruction, /memory demote <n> data again):\n${lines.join('\n')}`
      );
    },
    async remember(asker, key, text) {
      let rest = text.trim();
      const everywhere = /^--everywhere(\s|$)/i.test(rest);
      if (everywhere) rest = rest.replace(/^--everywhere\s*/i, '');
      const mine = everywhere || /^me:\s*/i.test(rest);
      const clean = rest
        .replace(/^me:\s*/i, '')
        .replace(/\s+/g, ' ')
        .trim();
      if (!clean)
        return 'Usage: /memory remember <text> (or "me: <text>" for a note about you, "--everywhere <text>" for one that follows you from a private chat).';
      if (clean.length > MAX_NOTE_CHARS) return `A note is at most ${MAX_NOTE_CHARS} characters.`;
      const local = mine && !everywhere && (asker.dm || asker.privateChannel === true);
      const instruction = await admin(asker).catch(() => false);
      await deps.store.addNote({
        key,
        subject: mine ? asker.principal : null,
        text: clean,
        author: asker.principal,
        instruction,
        local,
      });
      const kind = instruction
        ? 'an instruction (you are an admin)'
        : 'data the bot reads, not an instruction';
      if (!mine) return `Noted for this channel, as ${kind}.`;
      return local
        ? 'Noted about you, in this conversation only (it was said in private; /memory remember --everywhere <text> makes a note that follows you).'
        : 'Noted about you; it follows you to other channels.';
    },
    async promote(asker, key, n, instruction) {
      if (!(await admin(asker))) return 'Only admins can make a note an instruction or data.';
      const notes = await visible(asker, key);
      const note = notes[n - 1];
      if (!note || !Number.isInteger(n)) return `There is no note ${n}; /memory notes lists them.`;
      await deps.store.setNoteInstruction(note.id, instruction);
      return instruction
        ? `Note ${n} is now an instruction: ${note.text}`
        : `Note ${n} is now data, not an instruction: ${note.text}`;
    },
    async forget(asker, key, n) {
      const notes = await visible(asker, key);
      const note = notes[n - 1];
      if (!note || !Number.isInteger(n)) return `There is no note ${n}; /memory notes lists them.`;
      const own = note.subject === asker.principal || note.author === asker.principal;
      if (!own && !(await admin(asker))) return 'Only its author or an admin can remove that note.';
      await deps.store.deleteNote(note.id);
      return `Forgotten: ${note.text}`;
    },
    async forgetMe(asker, key, { everywhere, principal }) {
      const who = principal ?? asker.principal;
      if (who !== asker.principal && !(await admin(asker)))
        return 'Only admins can make the bot forget someone else.';
      const report = await deps.store.forgetPerson({
        principal: who,
        key: everywhere ? undefined : key,
        usageKeptSince: now() - USAGE_KEPT_MS,
      });
      const where = everywhere ? 'in every channel' : 'in this channel';
      return (
        `${forgottenList(report, where, who === asker.principal ? 'you' : who)} ` +
        'Usage of the last two days still counts against limits, under a pseudonym; ' +
        'the running summary is not rewritten (/reset clears it).'
      );
    },
    run(asker, key, args) {
      const [sub = '', ...rest] = args.trim().split(/\s+/);
      const tail = args.trim().slice(sub.length).trim();
      switch (sub.toLowerCase()) {
        case 'notes':
          return commands.notes(asker, key);
        case 'remember':
          return commands.remember(asker, key, tail);
        case 'forget': {
          const n = Number(tail);
          if (!/^\d+$/.test(tail))
            return Promise.resolve('Usage: /memory forget <n> (the number /memory notes shows).');
          return commands.forget(asker, key, n);
        }
        case 'promote':
        case 'demote': {
          if (!/^\d+$/.test(tail))
            return Promise.resolve(
              `Usage: /memory ${sub.toLowerCase()} <n> (the number /memory notes shows).`,
            );
          return commands.promote(asker, key, Number(tail), sub.toLowerCase() === 'promote');
        }
        case 'forget-me': {
          const everywhere = rest.includes('--everywhere');
          const principal = rest.find((r) => r !== '--everywhere');
          return commands.forgetMe(asker, key, { everywhere, principal });
        }
        default:
          return undefined;
      }
    },
  };
  return commands;
}

/** What forget-me removed, in plain words: each kind it found with its count. */
export function forgottenList(report: ForgetReport, where: string, who: string): string {
  const found = Object.entries(FORGOTTEN_KINDS)
    .map(([kind, [one, several]]) => [report[kind as keyof ForgetReport], one, several] as const)
    .filter(([n]) => n > 0)
    .map(([n, one, several]) => `${n} ${n === 1 ? one : several}`);
  return found.length > 0
    ? `Forgotten ${where}: ${found.join(', ')}.`
    : `Nothing was kept about ${who} ${where}.`;
}
