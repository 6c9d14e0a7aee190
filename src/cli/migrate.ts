import dotenv from 'dotenv';
import { ConfigError } from '../core/errors.js';
import { sqlitePathOf } from '../store/create-store.js';
import { openPostgresImport } from '../store/postgres/postgres-import.js';
import { isPostgresUrl, type PostgresTarget, parsePostgresUrl } from '../store/postgres/postgres-url.js';
import { openSqliteExport } from '../store/sqlite/sqlite-export.js';
import { SQLITE_MEMORY_PATH } from '../store/sqlite/sqlite-paths.js';
import { exitWith, runCli } from './cli-exit.js';
import { MIGRATE_SYNOPSIS, MigrateArgsError, parseMigrateArgs } from './migrate-args.js';

const USAGE_BATCH = 500;

/**
 * `npm run migrate`: copies a SQLite store into a Postgres one. Conversations are keyed by their key (one
 * that exists in Postgres is left alone), usage records by their source identity, channel settings by key
 * and name, so a second run copies nothing new. It reads one setting, DATABASE_URL, as the default target.
 */
async function main(argv: readonly string[]): Promise<void> {
  let args: ReturnType<typeof parseMigrateArgs>;
  try {
    args = parseMigrateArgs(argv);
  } catch (err) {
    if (err instanceof MigrateArgsError) usageError(err.message);
    throw err;
  }
  if (args.help) {
    process.stdout.write(`${MIGRATE_SYNOPSIS}\n`);
    return;
  }
  if (!args.from) usageError('--from is missing');
  if (!/^\s*sqlite:/i.test(args.from)) usageError('--from must be a sqlite: URL');
  dotenv.config({ quiet: true });
  const to = args.to ?? process.env.DATABASE_URL?.trim();
  if (!to) usageError('--to is missing (and DATABASE_URL is not set)');
  if (!isPostgresUrl(to)) {
    usageError(
      args.to ? '--to must be a postgres:// URL' : 'DATABASE_URL is not a postgres:// URL; give --to',
    );
  }
  let path: string;
  let target: PostgresTarget;
  try {
    path = sqlitePathOf(args.from);
    target = parsePostgresUrl(to, args.to ? '--to' : 'DATABASE_URL');
  } catch (err) {
    if (err instanceof ConfigError) usageError(err.problems.join('; '));
    throw err;
  }
  if (path === SQLITE_MEMORY_PATH) usageError('--from must name a SQLite file');

  const source = openSqliteExport(path);
  try {
    const sink = await openPostgresImport(target);
    try {
      const counts = {
        conversations: 0,
        conversationsThere: 0,
        turns: 0,
        archived: 0,
        notes: 0,
        usage: 0,
        usageThere: 0,
        settings: 0,
        settingsThere: 0,
        schedules: 0,
        schedulesThere: 0,
      };
      for (const c of source.conversations()) {
        if (await sink.conversation(c)) {
          counts.conversations++;
          counts.turns += c.turns.length;
          counts.archived += c.archive.length;
          counts.notes += c.notes.length;
        } else counts.conversationsThere++;
      }
      for (const batch of source.usage(USAGE_BATCH)) {
        const copied = await sink.usage(batch);
        counts.usage += copied;
        counts.usageThere += batch.length - copied;
      }
      const settings = source.settings();
      counts.settings = await sink.settings(settings);
      counts.settingsThere = settings.length - counts.settings;
      const schedules = source.schedules();
      counts.schedules = await sink.schedules(schedules);
      counts.schedulesThere = schedules.length - counts.schedules;
      process.stdout.write(
        `Copied ${path} into the ${target.describe}:\n` +
          `  conversations  ${counts.conversations} copied, ${counts.conversationsThere} already there (left as they are)\n` +
          `  turns          ${counts.turns} copied\n` +
          `  archived turns ${counts.archived} copied (what recall searches)\n` +
          `  notes          ${counts.notes} copied\n` +
          `  usage records  ${counts.usage} copied, ${counts.usageThere} already there\n` +
          `  settings       ${counts.settings} copied, ${counts.settingsThere} already there (left as they are)\n` +
          `  schedules      ${counts.schedules} copied, ${counts.schedulesThere} already there (left as they are)\n`,
      );
    } finally {
      await sink.close();
    }
  } finally {
    source.close();
  }
}

function usageError(problem: string): never {
  return exitWith(2, `thinkthread migrate: ${problem}. ${MIGRATE_SYNOPSIS}`);
}

await runCli('migrate', () => main(process.argv.slice(2)));
