import { once } from 'node:events';
import { parseArgs } from 'node:util';
import dotenv from 'dotenv';
import type { Store } from '../core/ports/store.js';
import { createStore } from '../store/create-store.js';
import { exitWith, runCli } from './cli-exit.js';

const SYNOPSIS =
  "Usage: npm run export -- --key <conversation> [--database <url>]: writes the conversation's archive " +
  '(every turn: question, speaker, answer, time) and its notes to stdout as JSON lines.';
const BATCH = 1000;

/**
 * `npm run export -- --key <conversation>`: one JSON object per line, `{"type":"turn",…}` for each archived
 * turn in order, then `{"type":"note",…}` for each of the conversation's notes. DATABASE_URL is the default
 * store.
 */
async function main(argv: readonly string[]): Promise<void> {
  let values: { key?: string | undefined; database?: string | undefined; help?: boolean | undefined };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { key: { type: 'string' }, database: { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
    }));
  } catch (err) {
    return exitWith(2, `thinkthread export: ${(err as Error).message}. ${SYNOPSIS}`);
  }
  if (values.help) {
    process.stdout.write(`${SYNOPSIS}\n`);
    return;
  }
  const key = values.key?.trim();
  if (!key) exitWith(2, `thinkthread export: --key is missing. ${SYNOPSIS}`);
  dotenv.config({ quiet: true });
  const url = values.database ?? process.env.DATABASE_URL?.trim() ?? 'sqlite:./data/thinkthread.db';
  const store = await createStore(url, { poolSize: 1 });
  try {
    await exportConversation(store, key, async (line) => {
      if (!process.stdout.write(`${line}\n`)) await once(process.stdout, 'drain');
    });
  } finally {
    await store.close();
  }
}

/** Writes `key`'s archive and notes as JSON lines through `write`; resolves with how many of each. */
export async function exportConversation(
  store: Pick<Store, 'archivedTurns' | 'notesFor'>,
  key: string,
  write: (line: string) => Promise<void> | void,
): Promise<{ turns: number; notes: number }> {
  let turns = 0;
  for (let after = 0; ; ) {
    const page = await store.archivedTurns(key, after, BATCH);
    for (const t of page) {
      const { author, principal, question, answer } = t;
      await write(line('turn', t, { author, principal, question, answer }));
    }
    turns += page.length;
    if (page.length < BATCH) break;
    after = page[page.length - 1]!.id;
  }
  const notes = await store.notesFor(key);
  for (const n of notes) await write(line('note', n, { text: n.text, author: n.author }));
  return { turns, notes: notes.length };
}

/** One JSON line: its type, id and time (ISO), then the fields of that type, in that order. */
function line(type: string, row: { id: number; createdAt: number }, fields: object): string {
  return JSON.stringify({ type, id: row.id, at: new Date(row.createdAt).toISOString(), ...fields });
}

if (process.argv[1]?.endsWith('export.ts') || process.argv[1]?.endsWith('export.js')) {
  await runCli('export', () => main(process.argv.slice(2)));
}
