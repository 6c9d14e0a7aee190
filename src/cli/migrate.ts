import dotenv from 'dotenv';
import { ConfigError } from '../core/errors.js';
import { sqlitePathOf } from '../store/create-store.js';
import { openPostgresImport } from '../store/postgres/postgres-import.js';
import { isPostgresUrl, type PostgresTarget, parsePostgresUrl } from '../store/postgres/postgres-url.js';
import { openSqliteExport } from '../store/sqlite/sqlite-export.js';
import { SQLITE_MEMORY_PATH } from '../store/sqlite/sqlite-paths.js';
import { exitWith, runCli } from './cli-exit.js';
import { MIGRATE_SYNOPSIS, MigrateArgsError, parseMigrateArgs } from './migrate-args.js';
import { copyStore } from './migrate-copy.js';
import { migrateReport } from './migrate-report.js';

/**
 * `npm run migrate`: copies every table of a SQLite store that Postgres keeps (see migrate-copy.ts), each row
 * at most once, and prints what it copied per table and what it left out and why. It reads one setting,
 * DATABASE_URL, as the default target.
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
      const copy = await copyStore(source, sink);
      process.stdout.write(migrateReport(path, target.describe, source.tables(), copy));
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
