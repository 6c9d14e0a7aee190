import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationSnapshot } from '../../src/core/ports/conversation-store.js';
import type { Store } from '../../src/core/ports/store.js';
import type { StoredUsageRecord } from '../../src/core/ports/usage-store.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { parsePostgresUrl } from '../../src/store/postgres/postgres-url.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { freePort } from '../helpers/free-port.js';
import { type CliRun, runCli } from '../helpers/run-cli.js';
import { dropSchema, freshSchema, postgresSuite, withSchema } from '../store/postgres-test-db.js';

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

const T = Date.UTC(2026, 2, 1, 12);

/** Fills a SQLite store with: a compacted conversation, a plain one, a reset one, and usage of each outcome. */
async function fill(store: Store): Promise<void> {
  const turn = (n: number) => ({ author: `user${n % 2}`, question: `q${n}`, answer: `a${n}`, tokens: n });
  const ids: number[] = [];
  for (let n = 1; n <= 5; n++) ids.push((await store.appendTurn('discord:g:c1', turn(n))).id);
  for (let n = 6; n <= 7; n++) await store.appendTurn('slack:T:C2', turn(n));
  await store.appendTurn('discord:g:c1', turn(8));
  const snap = await store.load('discord:g:c1');
  await store.compact('discord:g:c1', {
    throughId: ids[1]!,
    foldedTurns: 2,
    expectedVersion: snap.version,
    summary: { text: 'q1 and q2 were asked', tokens: 5 },
  });
  await store.appendTurn('console:local', turn(9));
  await store.reset('console:local');
  const start = (at: number, userId: string | null) => ({
    at,
    platform: 'discord',
    key: 'discord:g:c1',
    userId,
    model: 'gpt-4o-mini',
    protocol: 'tools',
  });
  const rules = { rates: [{ name: 'RATE', scope: 'all' as const, limit: 2, windowMs: 60_000 }], budgets: [] };
  const first = await store.admit(start(T, 'u1'), rules);
  await store.admit(start(T + 1, 'u2'), rules);
  await store.admit(start(T + 2, 'u3'), rules);
  if (!first.admitted) throw new Error('expected the first ask to be admitted');
  const spent = {
    modelCalls: 2,
    promptTokens: 100,
    completionTokens: 20,
    cachedTokens: 40,
    tools: { calculator: 1 },
    durationMs: 900,
  };
  await store.complete(first.id, { outcome: 'answered', ...spent });
  await store.record({ ...start(T + 3, null), outcome: 'summary', ...spent, tools: {} });
  await store.record({ ...start(T + 4, 'u4'), outcome: 'refused', ...spent, modelCalls: 0, tools: {} });
  await store.setSettings('discord:g:c1', { prompt: 'Answer in French.', steps: 'off' });
  await store.setSettings('slack:T:C2', { model: 'big-model' });
  await store.addNote({
    key: 'discord:g:c1',
    subject: null,
    text: 'deploys on Tuesdays',
    author: 'discord:1',
    instruction: true,
  });
}

const KEYS = ['discord:g:c1', 'slack:T:C2', 'console:local'];
const withoutIds = (s: ConversationSnapshot) => ({
  ...s,
  turns: s.turns.map(({ id: _, ...t }) => t),
});
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

postgresSuite('npm run migrate', (base) => {
  let dir: string;
  let schema: string;
  let target: string;
  let sqlite: Store;
  let postgres: Store | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-migrate-'));
    schema = freshSchema();
    const u = new URL(withSchema(base, schema));
    u.password = SECRET;
    target = u.toString();
    sqlite = openSqliteStore(join(dir, 'data', 'thinkthread.db'));
    await fill(sqlite);
  });
  afterAll(async () => {
    await sqlite.close();
    await postgres?.close();
    await dropSchema(base, schema);
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies every conversation and usage record, then nothing on a second run', {
    timeout: 60_000,
  }, async () => {
    // DATABASE_URL (here from the environment) is the default target.
    const first = await migrate(['--from', 'sqlite:./data/thinkthread.db'], dir, { DATABASE_URL: target });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).not.toContain(SECRET);
    expect(first.stdout).toContain(
      `Copied ${join(dir, 'data', 'thinkthread.db')} into the Postgres database`,
    );
    expect(first.stdout).toMatch(/conversations +3 copied, 0 already there/);
    expect(first.stdout).toMatch(/turns +6 copied/);
    expect(first.stdout).toMatch(/archived turns +8 copied/);
    expect(first.stdout).toMatch(/notes +1 copied/);
    expect(first.stdout).toMatch(/usage records +5 copied, 0 already there/);
    expect(first.stdout).toMatch(/settings +3 copied, 0 already there/);

    postgres = await openPostgresStore(parsePostgresUrl(target));
    for (const key of KEYS) {
      const copied = await postgres.load(key);
      expect(withoutIds(copied)).toEqual(withoutIds(await sqlite.load(key)));
      const ids = copied.turns.map((t) => t.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    }
    // The archive came along, folded turns included, and a verbatim turn keeps one id in both.
    const folded = await postgres.searchArchive({ key: 'discord:g:c1', query: 'q1', limit: 5 });
    expect(folded.map((t) => t.question)).toEqual(['q1']);
    const archived = await postgres.archivedTurns('discord:g:c1', 0, 100);
    expect(archived.map((t) => t.question)).toEqual(['q1', 'q2', 'q3', 'q4', 'q5', 'q8']);
    const verbatim = (await postgres.load('discord:g:c1')).turns.map((t) => t.id);
    expect(archived.slice(2).map((t) => t.id)).toEqual(verbatim);
    // An admin's note stays an instruction in the copy.
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
    for (const key of KEYS) expect(await postgres.getSettings(key)).toEqual(await sqlite.getSettings(key));
    expect(await postgres.getSettings('discord:g:c1')).toEqual({ prompt: 'Answer in French.', steps: 'off' });

    const second = await migrate(['--from', 'sqlite:./data/thinkthread.db', '--to', target], dir);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/conversations +0 copied, 3 already there/);
    expect(second.stdout).toMatch(/turns +0 copied/);
    expect(second.stdout).toMatch(/usage records +0 copied, 5 already there/);
    expect(second.stdout).toMatch(/settings +0 copied, 3 already there/);
    expect(await postgres.records(all)).toHaveLength(5);
    expect((await postgres.load('discord:g:c1')).turns).toHaveLength(5);
  });
});
