import type { PostgresImport } from '../store/postgres/postgres-import.js';
import type { SqliteExport } from '../store/sqlite/sqlite-export.js';

/** What copying one table did. */
export interface TableCopy {
  table: string;
  /** Rows in the SQLite file. */
  rows: number;
  copied: number;
  /** Rows Postgres held already (same key): kept as they are there. */
  there: number;
  /** Why the other rows, if any, were not copied. */
  rest?: string;
}

/** Everything a migration copied, table by table, and what a person should know about it. */
export interface StoreCopy {
  tables: TableCopy[];
  warnings: string[];
}

const BATCH = 500;

/** Tables copied row by row as they are, each row told apart by its own primary key. */
const KEYED_TABLES = [
  'channel_settings',
  'feedback',
  'approvals',
  'approval_grants',
  'approval_waits',
  'web_sessions',
  'app_secrets',
  'followed_threads',
  'knowledge_files',
];

/** Copies every table `source` has that Postgres keeps, each row at most once however often it runs. */
export async function copyStore(source: SqliteExport, sink: PostgresImport): Promise<StoreCopy> {
  const present = new Set(source.tables());
  const tables: TableCopy[] = [];
  const warnings: string[] = [];
  const tally = (table: string, rest?: string) => {
    const t: TableCopy = { table, rows: present.has(table) ? source.count(table) : 0, copied: 0, there: 0 };
    if (rest) t.rest = rest;
    if (present.has(table)) tables.push(t);
    return t;
  };

  const conversations = tally('conversations');
  const turns = tally('turns');
  const archive = tally('archive');
  const notes = tally('notes');
  const thereKeys: string[] = [];
  for (const c of source.conversations()) {
    const copied = await sink.conversation(c);
    const side = copied ? 'copied' : 'there';
    if (c.stored) conversations[side]++;
    turns[side] += c.turns.length;
    archive[side] += c.archive.length;
    notes[side] += c.notes.length;
    if (!copied) thereKeys.push(c.key);
  }
  if (thereKeys.length > 0) {
    warnings.push(
      `${thereKeys.length} conversation(s) were in Postgres already under the same key (${thereKeys.slice(0, 5).join(', ')}${thereKeys.length > 5 ? ', …' : ''}): each was kept as it is there, and the SQLite memory of it was not merged; npm run export -- --database sqlite:<path> --key <key> writes it out.`,
    );
  }

  const usage = tally('usage');
  for (const batch of source.usage(BATCH)) {
    const copied = await sink.usage(batch);
    usage.copied += copied;
    usage.there += batch.length - copied;
  }
  const logs = tally('run_logs', 'their usage record is gone, so no run would show them');
  const tools = tally('run_log_tools', 'they belong to no run log that could be copied');
  for (const batch of source.runLogs(BATCH)) {
    const done = await sink.runLogs(batch);
    logs.copied += done.logs;
    logs.there += batch.length - done.logs - done.orphans;
    tools.copied += done.tools;
    tools.there += done.toolsThere;
  }

  // A schedule's claim is the lease of the process firing it, not part of the schedule: copies are unclaimed.
  const schedules = tally('schedules');
  const all = source.schedules();
  schedules.copied = await sink.schedules(all);
  schedules.there = all.length - schedules.copied;

  for (const table of KEYED_TABLES) {
    const t = tally(table);
    for (const batch of source.rows(table, BATCH)) {
      const copied = await sink.rows(table, batch);
      t.copied += copied;
      t.there += batch.length - copied;
      if (table === 'app_secrets') {
        const differing = await sink.differingSecrets(batch as { name: string; value: string }[]);
        for (const name of differing) warnings.push(secretWarning(name));
      }
    }
  }

  // SQLite numbers passages for its search index; Postgres keys them by file and place.
  const passages = tally('knowledge_passages');
  for (const batch of source.rows('knowledge_passages', BATCH)) {
    const copied = await sink.rows(
      'knowledge_passages',
      batch.map(({ id: _, ...passage }) => passage),
    );
    passages.copied += copied;
    passages.there += batch.length - copied;
  }

  const chats = tally('web_chats');
  const runs = tally('web_chat_runs', 'they belong to no web chat, so no page shows them');
  for (const chat of source.webChats()) {
    const side = (await sink.webChat(chat)) ? 'copied' : 'there';
    chats[side]++;
    runs[side] += chat.runs.length;
  }
  return { tables, warnings };
}

const secretWarning = (name: string) =>
  name === 'web_session_secret'
    ? 'Postgres already keeps its own web_session_secret (kept): cookies the SQLite bot gave do not open there, so people signed in to the web chat sign in again, and a browser without sign-in starts with no chats (its copied chats stay in the store).'
    : `Postgres already keeps its own ${name} (kept; the SQLite one was not copied).`;
