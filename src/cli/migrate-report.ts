import { formatTable } from './format-table.js';
import type { StoreCopy } from './migrate-copy.js';

const ROLLUP = 'totals kept from usage by a trigger: Postgres sums the copied usage records into its own';
const SEARCH = "SQLite's full-text index of archive: Postgres indexes the copied archive itself";
const KNOWLEDGE_SEARCH =
  "SQLite's full-text index of knowledge_passages: Postgres indexes the copied passages itself";

/** The SQLite tables `npm run migrate` leaves out on purpose, and why. */
export const NOT_COPIED: Readonly<Record<string, string>> = {
  usage_hours: ROLLUP,
  usage_day_channels: ROLLUP,
  usage_day_durations: ROLLUP,
  usage_day_people: ROLLUP,
  usage_day_tools: ROLLUP,
  archive_fts: SEARCH,
  archive_fts_config: SEARCH,
  archive_fts_data: SEARCH,
  archive_fts_docsize: SEARCH,
  archive_fts_idx: SEARCH,
  knowledge_words: KNOWLEDGE_SEARCH,
  knowledge_words_config: KNOWLEDGE_SEARCH,
  knowledge_words_data: KNOWLEDGE_SEARCH,
  knowledge_words_docsize: KNOWLEDGE_SEARCH,
  knowledge_words_idx: KNOWLEDGE_SEARCH,
  sqlite_sequence: "SQLite's id counters: Postgres numbers new rows itself",
};

/**
 * The summary `npm run migrate` prints: each copied table's rows, copied and already there, then every other
 * table in the file with why it was not copied, and the warnings.
 */
export function migrateReport(from: string, to: string, tables: readonly string[], copy: StoreCopy): string {
  const copiedNames = new Set(copy.tables.map((t) => t.table));
  const grid = formatTable(
    ['table', 'in SQLite', 'copied', 'already there'],
    copy.tables.map((t) => [t.table, String(t.rows), String(t.copied), String(t.there)]),
    ['left', 'right', 'right', 'right'],
  );
  const rest = copy.tables.flatMap((t) => {
    const n = t.rows - t.copied - t.there;
    return n > 0 ? [`  ${t.table}: ${n} not copied: ${t.rest ?? 'unexpected; please report it'}.`] : [];
  });
  const why = new Map<string, string[]>();
  const unknown: string[] = [];
  for (const table of tables) {
    const reason = NOT_COPIED[table];
    if (copiedNames.has(table)) continue;
    if (reason) why.set(reason, [...(why.get(reason) ?? []), table]);
    else unknown.push(table);
  }
  const skipped = [...why].map(([reason, names]) => `  ${names.join(', ')}: ${reason}.`);
  return [
    `Copied ${from} into the ${to}:`,
    ...grid.split('\n').map((line) => `  ${line}`),
    ...rest,
    'Rows already there were in Postgres before this run (same key) and were kept as they are: nothing is',
    'overwritten, merged or copied twice, so running this again copies only what is new.',
    ...(skipped.length > 0 ? ['Not copied, on purpose:', ...skipped] : []),
    ...(unknown.length > 0
      ? [`NOT COPIED, unknown to this build (left in the SQLite file): ${unknown.join(', ')}.`]
      : []),
    ...copy.warnings.map((w) => `Note: ${w}`),
    '',
  ].join('\n');
}
