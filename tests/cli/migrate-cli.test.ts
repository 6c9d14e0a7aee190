import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_COPIED } from '../../src/cli/migrate-report.js';
import type { ConversationSnapshot } from '../../src/core/ports/conversation-store.js';
import type { Store } from '../../src/core/ports/store.js';
import type { StoredUsageRecord } from '../../src/core/ports/usage-store.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { parsePostgresUrl } from '../../src/store/postgres/postgres-url.js';
import { tableNames } from '../../src/store/sqlite/sqlite-export-tables.js';
import { migrate as migrateSqlite } from '../../src/store/sqlite/sqlite-migrations.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { freePort } from '../helpers/free-port.js';
import { type CliRun, runCli } from '../helpers/run-cli.js';
import { dropSchema, freshSchema, postgresSuite, withSchema } from '../store/postgres-test-db.js';
import {
  EMBEDDING,
  EMBEDDING_MODEL,
  fillEveryTable,
  KEYS,
  NOTES_ONLY,
  PERSON,
  SECRET_VALUE,
  T,
} from './migrate-seed.js';

const SECRET = 'm1grate-s3cret';
const SYNOPSIS = /^thinkthread migrate: .+\. usage: npm run migrate -- --from sqlite:<path> /;

const migrate = (args: string[], cwd: string, env: Record<string, string> = {}) =>
  runCli('migrate', args, cwd, env);

const expectOneCleanLine = (run: CliRun, code: number) => {
  expect(run.code).toBe(code);
  expect(run.stdout).toBe('');
  expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(run.stderr).not.toContain(SECRET);
  expect(run.stderr).not.toMatch(/\n\s+at /);
};

const withoutIds = (s: ConversationSnapshot) => ({ ...s, turns: s.turns.map(({ id: _, ...t }) => t) });
const recordsWithoutIds = (rs: StoredUsageRecord[]) => rs.map(({ id: _, ...r }) => r);

describe('npm run migrate: bad arguments', { timeout: 60_000 }, () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-migrate-args-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints its usage with --help', async () => {
    const run = await migrate(['--help'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^usage: npm run migrate -- --from sqlite:<path>/);
  });

  it('answers each mistake with one line of usage on stderr and exit code 2, echoing no URL', async () => {
    const pg = `postgres://bot:${SECRET}@127.0.0.1:5432/test`;
    const runs = await Promise.all([
      migrate([], dir),
      migrate(['--to', pg], dir),
      migrate(['--from', `sqlite:${join(dir, 'x.db')}`, '--to', `mysql://bot:${SECRET}@h/d`], dir),
      migrate(['--from', `postgres://bot:${SECRET}@h/d`, '--to', pg], dir),
      migrate(['--from', `sqlite:${join(dir, 'x.db')}`, pg], dir),
      migrate(
        ['--from', `sqlite:${join(dir, 'x.db')}`, `--to=postgres://bot:${SECRET}@h/d?sslmode=maybe`],
        dir,
      ),
      migrate(['--from', `sqlite:${join(dir, 'x.db')}`, '--bogus'], dir),
      migrate(['--from', `sqlite:${join(dir, 'x.db')}`], dir, { DATABASE_URL: 'sqlite:./other.db' }),
    ]);
    const problems = [
      /--from is missing/,
      /--from is missing/,
      /--to must be a postgres:\/\/ URL/,
      /--from must be a sqlite: URL/,
      /unexpected argument/,
      /--to: sslmode must be one of/,
      /unknown option "--bogus"/,
      /DATABASE_URL is not a postgres:\/\/ URL; give --to/,
    ];
    for (const [i, run] of runs.entries()) {
      expectOneCleanLine(run, 2);
      expect(run.stderr).toMatch(SYNOPSIS);
      expect(run.stderr).toMatch(problems[i]!);
    }
  });

  it('exits 1 naming the host and port when Postgres cannot be reached', async () => {
    const path = join(dir, 'bot.db');
    await openSqliteStore(path).close();
    const port = await freePort();
    const run = await migrate(
      ['--from', `sqlite:${path}`, '--to', `postgres://bot:${SECRET}@127.0.0.1:${port}/test`],
      dir,
    );
    expectOneCleanLine(run, 1);
    expect(run.stderr).toContain(`Postgres database test at 127.0.0.1:${port}`);
  });

  it('exits 1 naming the path when the SQLite file is not there', async () => {
    const run = await migrate(
      ['--from', 'sqlite:./missing.db', '--to', `postgres://bot:${SECRET}@127.0.0.1:5432/test`],
      dir,
    );
    expectOneCleanLine(run, 1);
    expect(run.stderr).toContain(join(dir, 'missing.db'));
  });
});

/** Each copied table's line of the summary: rows in SQLite, copied, already there. */
function grid(stdout: string): Map<string, { rows: number; copied: number; there: number }> {
  const lines = [...stdout.matchAll(/^ {2}(\w+) +(\d+) +(\d+) +(\d+)$/gm)];
  return new Map(lines.map((m) => [m[1]!, { rows: +m[2]!, copied: +m[3]!, there: +m[4]! }]));
}

/** The tables a SQLite store of this build has. */
function sqliteTables(dir: string): string[] {
  const path = join(dir, 'fresh.db');
  const db = new Database(path);
  try {
    migrateSqlite(db);
    return tableNames(db);
  } finally {
    db.close();
  }
}

postgresSuite('npm run migrate', (base) => {
  let dir: string;
  let sqlite: Store;
  const schemas: string[] = [];
  const opened: Store[] = [];
  const target = () => {
    const schema = freshSchema();
    schemas.push(schema);
    const u = new URL(withSchema(base, schema));
    u.password = SECRET;
    return u.toString();
  };
  const open = async (url: string) => {
    const store = await openPostgresStore(parsePostgresUrl(url));
    opened.push(store);
    return store;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-migrate-'));
    sqlite = openSqliteStore(join(dir, 'data', 'thinkthread.db'));
    await fillEveryTable(sqlite);
  });
  afterAll(async () => {
    await sqlite.close();
    for (const store of opened) await store.close();
    for (const schema of schemas) await dropSchema(base, schema);
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies every table it does not leave out on purpose, says why it leaves the others, and copies nothing twice', {
    timeout: 60_000,
  }, async () => {
    const url = target();
    // DATABASE_URL (here from the environment) is the default target.
    const first = await migrate(['--from', 'sqlite:./data/thinkthread.db'], dir, { DATABASE_URL: url });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).not.toContain(SECRET);
    expect(first.stdout).not.toContain(SECRET_VALUE);
    expect(first.stdout).toContain(
      `Copied ${join(dir, 'data', 'thinkthread.db')} into the Postgres database`,
    );
    expect(first.stdout).not.toMatch(/unknown to this build|not copied:/);
    const copied = grid(first.stdout);
    // A table a later migration adds fails here until migrate copies it or says why it leaves it out.
    for (const table of sqliteTables(dir)) {
      const reason = NOT_COPIED[table];
      if (reason) {
        expect(copied.has(table), table).toBe(false);
        expect(first.stdout, table).toMatch(new RegExp(`^ {2}.*\\b${table}\\b.*: ${reason}\\.$`, 'm'));
        continue;
      }
      // …and until the seed fills it, so the copy is seen to work.
      expect(copied.get(table), table).toMatchObject({ copied: expect.any(Number), there: 0 });
      expect(copied.get(table)!.rows, `${table} is seeded`).toBeGreaterThan(0);
      expect(copied.get(table)!.copied, table).toBe(copied.get(table)!.rows);
    }
    expect(copied.get('conversations')!.rows).toBe(5);
    expect(copied.get('notes')!.rows).toBe(4);

    const postgres = await open(url);
    for (const key of [...KEYS, 'web:sam']) {
      const copy = await postgres.load(key);
      expect(withoutIds(copy)).toEqual(withoutIds(await sqlite.load(key)));
      const ids = copy.turns.map((t) => t.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    }
    // The archive came along, folded turns included, and a verbatim turn keeps one id in both.
    const folded = await postgres.searchArchive({ key: 'discord:g:c1', query: 'q1', limit: 5 });
    expect(folded.map((t) => t.question)).toEqual(['q1']);
    const archived = await postgres.archivedTurns('discord:g:c1', 0, 100);
    expect(archived.map((t) => t.question)).toEqual(['q1', 'q2', 'q3', 'q4', 'q5', 'q8']);
    const verbatim = (await postgres.load('discord:g:c1')).turns.map((t) => t.id);
    expect(archived.slice(2).map((t) => t.id)).toEqual(verbatim);
    // A passage's embedding came along, byte for byte.
    const embedded = await postgres.knowledgeEmbeddings('base', 'handbook.md', EMBEDDING_MODEL);
    expect(embedded.map((e) => [...e.embedding])).toEqual([[...EMBEDDING]]);
    // Notes, an admin's instruction and those on a key that has no conversation included.
    for (const key of ['discord:g:c1', NOTES_ONLY]) {
      expect(await postgres.notesFor(key)).toEqual(await sqlite.notesFor(key));
    }
    expect((await postgres.notesFor('discord:g:c1')).map((n) => [n.text, n.instruction])).toEqual([
      ['deploys on Tuesdays', true],
    ]);
    const next = await postgres.appendTurn('discord:g:c1', {
      author: 'x',
      question: 'q10',
      answer: 'a',
      tokens: 1,
    });
    expect(next.id).toBeGreaterThan(Math.max(...archived.map((t) => t.id)));

    const all = { since: 0, until: T + 60_000 };
    expect(recordsWithoutIds(await postgres.records(all))).toEqual(
      recordsWithoutIds(await sqlite.records(all)),
    );
    // The admin page reads the same: charts (the rollups), failing tools (run_log_tools), votes, runs and logs.
    const stats = { since: 0, until: T + 60_000, offsetMs: 0 };
    expect(await postgres.adminStats(stats, 10)).toEqual(await sqlite.adminStats(stats, 10));
    const runs = { ...all, limit: 50 };
    const listed = await postgres.listRuns(runs);
    expect(listed.map(({ id: _, ...r }) => r)).toEqual(
      (await sqlite.listRuns(runs)).map(({ id: _, ...r }) => r),
    );
    const asked = listed.find((r) => r.question === 'what is 1/0?')!;
    const source = (await sqlite.listRuns(runs)).find((r) => r.question === 'what is 1/0?')!;
    const logOf = async (store: Store, id: number) => {
      const { usageId: _, ...log } = (await store.runDetail(id))!.log!;
      return log;
    };
    expect(await logOf(postgres, asked.id)).toEqual(await logOf(sqlite, source.id));
    expect(await postgres.adminChannelSettings()).toEqual(await sqlite.adminChannelSettings());
    expect(await postgres.allSchedules()).toEqual(await sqlite.allSchedules());
    const period = { since: 0, until: Number.MAX_SAFE_INTEGER };
    expect(await postgres.feedbackTotals(period)).toEqual(await sqlite.feedbackTotals(period));
    expect(await postgres.listApprovals(period)).toEqual(await sqlite.listApprovals(period));
    expect(await postgres.approvalGrants('slack:T1:C1')).toEqual(await sqlite.approvalGrants('slack:T1:C1'));
    for (const id of ['w-sam', 'v-sam']) expect(await postgres.getWait(id)).toEqual(await sqlite.getWait(id));
    expect(await postgres.listWebChats(PERSON, 10)).toEqual(await sqlite.listWebChats(PERSON, 10));
    expect(await postgres.webChatRuns(PERSON, 'web:sam')).toEqual(
      await sqlite.webChatRuns(PERSON, 'web:sam'),
    );
    expect(await postgres.webSession('session-sam')).toEqual(await sqlite.webSession('session-sam'));
    // The web chat's cookie key came along, so a browser's cookie opens the same chats after the move.
    expect(await postgres.appSecret('web_session_secret', () => 'made anew')).toBe(SECRET_VALUE);

    const second = await migrate(['--from', 'sqlite:./data/thinkthread.db', '--to', url], dir);
    expect(second.code).toBe(0);
    const again = grid(second.stdout);
    expect([...again.keys()]).toEqual([...copied.keys()]);
    for (const [table, { rows }] of copied)
      expect(again.get(table), table).toEqual({ rows, copied: 0, there: rows });
    expect(second.stdout).toContain('running this again copies only what is new');
    expect(await postgres.records(all)).toHaveLength((await sqlite.records(all)).length);
    expect((await postgres.load('discord:g:c1')).turns).toHaveLength(5);
    expect(await postgres.notesFor(NOTES_ONLY)).toHaveLength(1);
  });

  it('keeps what Postgres already holds under the same key, and says so', { timeout: 60_000 }, async () => {
    const url = target();
    const live = await open(url);
    await live.appendTurn('slack:T:C2', {
      author: 'pg',
      question: 'asked on Postgres',
      answer: 'yes',
      tokens: 1,
    });
    await live.appSecret('web_session_secret', () => 'made on postgres');

    const run = await migrate(['--from', 'sqlite:./data/thinkthread.db', '--to', url], dir);
    expect(run.code).toBe(0);
    const counts = grid(run.stdout);
    expect(counts.get('conversations')).toEqual({ rows: 5, copied: 4, there: 1 });
    expect(counts.get('turns')).toMatchObject({ there: 2 });
    expect(counts.get('app_secrets')).toEqual({ rows: 1, copied: 0, there: 1 });
    expect(run.stdout).toMatch(
      /^Note: 1 conversation\(s\) were in Postgres already under the same key \(slack:T:C2\)/m,
    );
    expect(run.stdout).toMatch(/^Note: Postgres already keeps its own web_session_secret \(kept\)/m);
    expect(run.stdout).not.toContain('made on postgres');
    expect((await live.load('slack:T:C2')).turns.map((t) => t.question)).toEqual(['asked on Postgres']);
    expect(await live.appSecret('web_session_secret', () => 'x')).toBe('made on postgres');
  });
});
