import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageRecord } from '../../src/core/ports/usage-store.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { runCli } from '../helpers/run-cli.js';

const usage = (args: string[], env: Record<string, string>, cwd: string) => runCli('usage', args, cwd, env);

const record = (iso: string, over: Partial<UsageRecord> = {}): UsageRecord => ({
  at: Date.parse(iso),
  platform: 'discord',
  key: 'discord:g1:c1',
  userId: '1001',
  model: 'gpt-4o-mini',
  protocol: 'tools',
  outcome: 'answered',
  modelCalls: 2,
  promptTokens: 1000,
  completionTokens: 200,
  cachedTokens: 0,
  tools: {},
  durationMs: 900,
  ...over,
});

const BERLIN = { DEFAULT_TIMEZONE: 'Europe/Berlin' };
const SYNOPSIS =
  'usage: npm run usage -- [--since YYYY-MM-DD] [--until YYYY-MM-DD] [--by user|channel|day] [--approvals] [--csv]';

// Each run starts a tsx process: a few seconds on a loaded machine.
describe('npm run usage', { timeout: 60_000 }, () => {
  let dir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-usage-cli-'));
    env = { DATABASE_URL: `sqlite:${join(dir, 'data', 'bot.db')}` };
    const store = openSqliteStore(join(dir, 'data', 'bot.db'));
    // March 2026 in Berlin, which switches to summer time on the 29th; the records are at local 00:30 on
    // the 28th, 23:30 on the 28th, 00:30 on the 29th, 23:30 on the 29th and 00:30 on the 30th.
    await store.record(
      record('2026-03-27T23:30:00Z', {
        promptTokens: 5000,
        cachedTokens: 4000,
        completionTokens: 1000,
        modelCalls: 3,
      }),
    );
    await store.record(
      record('2026-03-28T22:30:00Z', { userId: 'U02', key: 'slack:T1:C9', platform: 'slack' }),
    );
    await store.record(
      record('2026-03-28T23:30:00Z', {
        userId: null,
        outcome: 'summary',
        promptTokens: 300,
        completionTokens: 60,
        modelCalls: 1,
      }),
    );
    await store.record(
      record('2026-03-29T21:30:00Z', {
        userId: 'U02',
        key: 'slack:T1:C9',
        platform: 'slack',
        outcome: 'refused',
        modelCalls: 0,
        promptTokens: 0,
        completionTokens: 0,
      }),
    );
    await store.record(
      record('2026-03-29T22:30:00Z', {
        key: 'weird,"key"',
        outcome: 'limited',
        modelCalls: 0,
        promptTokens: 0,
        completionTokens: 0,
      }),
    );
    // Outside the period the tests ask for, and "now", for the default period.
    await store.record(record('2026-03-26T22:30:00Z', { promptTokens: 99_999 }));
    await store.record(
      record(new Date().toISOString(), {
        userId: 'NOW',
        promptTokens: 7,
        completionTokens: 3,
        modelCalls: 1,
      }),
    );
    // Votes on answers: u1 changed their mind (counted once), u2 commented.
    const vote = {
      platform: 'slack',
      key: 'slack:T1:C9',
      runId: 'r1',
      at: Date.parse('2026-03-28T12:00:00Z'),
    };
    await store.recordFeedback({ ...vote, userId: 'U01', vote: 'down' });
    await store.recordFeedback({ ...vote, userId: 'U01', vote: 'up' });
    await store.recordFeedback({ ...vote, userId: 'U02', vote: 'down', comment: 'too long' });
    await store.recordFeedback({ ...vote, userId: 'U03', vote: 'up', runId: 'r2' });
    // Decisions on tool calls that waited for approval: two in the period, one with a reason that needs quoting.
    const decision = {
      platform: 'slack',
      key: 'slack:T1:C9',
      tool: 'github__create_issue',
      argsDigest: 'ab'.repeat(32),
      asker: 'slack:T1:U01',
      requestedAt: Date.parse('2026-03-28T11:59:00Z'),
    };
    await store.recordApproval({
      ...decision,
      id: 'a1',
      at: Date.parse('2026-03-28T12:00:00Z'),
      outcome: 'approved',
      decidedBy: 'slack:T1:U01',
    });
    await store.recordApproval({
      ...decision,
      id: 'a2',
      at: Date.parse('2026-03-29T12:00:00Z'),
      outcome: 'denied',
      decidedBy: 'slack:T1:UADMIN',
      reason: 'wrong repo, "prod"',
    });
    await store.recordApproval({
      ...decision,
      id: 'a0',
      at: Date.parse('2026-03-01T12:00:00Z'),
      outcome: 'expired',
    });
    await store.close();
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const march = ['--since', '2026-03-28', '--until', '2026-03-30'];

  it('prints a table by user, largest first, summaries on their own row, with cost and a total', async () => {
    // The database is named in .env, as for the bot.
    writeFileSync(join(dir, '.env'), `DATABASE_URL=${env.DATABASE_URL}\nDEFAULT_TIMEZONE=Europe/Berlin\n`);
    try {
      const run = await usage(
        march,
        { LLM_PRICE_INPUT_PER_MTOK: '2.5', LLM_PRICE_OUTPUT_PER_MTOK: '10' },
        dir,
      );
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout).toBe(
        [
          'Usage from 2026-03-28 to 2026-03-30 (Europe/Berlin), by user',
          '',
          'user                questions  refused  limited  model calls  prompt tokens  of which cached  completion tokens  total tokens  est. cost (USD)',
          '------------------  ---------  -------  -------  -----------  -------------  ---------------  -----------------  ------------  ---------------',
          '1001                        1        0        1            3          5,000            4,000              1,000         6,000            $0.02',
          'U02                         1        1        0            2          1,000                0                200         1,200            $0.00',
          '(memory summaries)          0        0        0            1            300                0                 60           360            $0.00',
          '------------------  ---------  -------  -------  -----------  -------------  ---------------  -----------------  ------------  ---------------',
          'total                       2        1        1            6          6,300            4,000              1,260         7,560            $0.03',
          '',
          'Feedback on answers: 2 👍, 1 👎 (1 with a comment)',
          '',
        ].join('\n'),
      );
    } finally {
      rmSync(join(dir, '.env'));
    }
  });

  it('prints CSV by channel, quoting the fields that need it, without a cost column when no price is set', async () => {
    const run = await usage([...march, '--by', 'channel', '--csv'], { ...env, ...BERLIN }, dir);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(
      [
        'channel,questions,refused,limited,model_calls,prompt_tokens,cached_prompt_tokens,completion_tokens,total_tokens',
        'discord:g1:c1,1,0,0,4,5300,4000,1060,6360',
        'slack:T1:C9,1,1,0,2,1000,0,200,1200',
        '"weird,""key""",0,0,1,0,0,0,0,0',
        'total,2,1,1,6,6300,4000,1260,7560',
        '',
      ].join('\r\n'),
    );
  });

  it('groups by local day across the DST change, --until inclusive', async () => {
    const run = await usage(
      ['--since', '2026-03-28', '--until', '2026-03-29', '--by', 'day', '--csv'],
      { ...env, ...BERLIN },
      dir,
    );
    expect(run.code).toBe(0);
    expect(run.stdout.split('\r\n').map((line) => line.split(',').slice(0, 4).join(','))).toEqual([
      'day,questions,refused,limited',
      '2026-03-28,2,0,0',
      '2026-03-29,0,1,0',
      'total,2,1,0',
      '',
    ]);
    // Without DEFAULT_TIMEZONE, days are the system's.
    const utc = await usage(
      ['--since', '2026-03-28', '--until', '2026-03-29', '--by', 'day', '--csv'],
      { ...env, TZ: 'UTC' },
      dir,
    );
    expect(utc.stdout.split('\r\n').map((line) => line.split(',').slice(0, 4).join(','))).toEqual([
      'day,questions,refused,limited',
      '2026-03-28,1,0,0',
      '2026-03-29,0,1,1',
      'total,1,1,1',
      '',
    ]);
  });

  it('covers this month so far by default, and prints a zero total for an empty period', async () => {
    const [current, empty] = await Promise.all([
      usage(['--csv'], { ...env, ...BERLIN }, dir),
      usage(['--since', '2020-01-01', '--until', '2020-01-31'], { ...env, ...BERLIN }, dir),
    ]);
    expect(current.stdout).toMatch(/\r\nNOW,1,0,0,1,7,0,3,10\r\ntotal,1,0,0,1,7,0,3,10\r\n$/);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toMatch(/^Usage from 2020-01-01 to 2020-01-31 \(Europe\/Berlin\), by user\n\nuser /);
    const lines = empty.stdout.trimEnd().split('\n');
    expect(lines.at(-4)).toMatch(/^-----/);
    expect(lines.at(-3)).toMatch(/^total\s+0\s+0\s+0\s+0\s+0\s+0\s+0\s+0$/);
    expect(lines.at(-1)).toBe('Feedback on answers: 0 👍, 0 👎');
  });

  it('lists the decisions on tool calls that waited for approval with --approvals, newest first, as a table or CSV', async () => {
    const table = await usage([...march, '--approvals'], { ...env, ...BERLIN }, dir);
    expect(table.stderr).toBe('');
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('Tool-call approvals from 2026-03-28 to 2026-03-30 (Europe/Berlin), newest first');
    expect(lines[2]).toMatch(/^decided at \(UTC\)\s+tool\s+outcome\s+decided by\s+asker\s+conversation/);
    expect(lines.slice(4)).toEqual([
      expect.stringMatching(
        /^2026-03-29 12:00:00\s+github__create_issue\s+denied\s+slack:T1:UADMIN\s+slack:T1:U01\s+slack:T1:C9\s+(ab){32}\s+wrong repo, "prod"$/,
      ),
      expect.stringMatching(/^2026-03-28 12:00:00\s+github__create_issue\s+approved\s+slack:T1:U01\s+/),
    ]);
    const csv = await usage([...march, '--approvals', '--csv'], { ...env, ...BERLIN }, dir);
    expect(csv.stdout.split('\r\n')[1]).toBe(
      `2026-03-29 12:00:00,github__create_issue,denied,slack:T1:UADMIN,slack:T1:U01,slack:T1:C9,${'ab'.repeat(32)},"wrong repo, ""prod"""`,
    );
  });

  it('answers bad arguments with one line of usage on stderr and exit code 2', async () => {
    const runs = await Promise.all([
      usage(['--by', 'model'], env, dir),
      usage(['--since', '2026-02-30'], env, dir),
      usage(['--until'], env, dir),
      usage(['--since', '2026-03-02', '--until', '2026-03-01'], env, dir),
      usage(['extra'], env, dir),
    ]);
    for (const run of runs) {
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^thinkthread usage: [^\n]+\n$/);
      expect(run.stderr).toContain(SYNOPSIS);
    }
    expect(runs[0]!.stderr).toContain('--by must be user, channel or day (got "model")');
  });

  it('says in one line, with exit code 1, when the store is missing, unsupported or settings are wrong', async () => {
    const missing = join(dir, 'nowhere', 'none.db');
    const runs = await Promise.all([
      usage([], { DATABASE_URL: `sqlite:${missing}` }, dir),
      usage([], { DATABASE_URL: 'mysql://bot:s3cret@db.internal/thinkthread' }, dir),
      usage([], { DATABASE_URL: `sqlite:${dir}` }, dir),
      usage([], { ...env, DEFAULT_TIMEZONE: 'Mars/Olympus' }, dir),
      usage([], { ...env, LLM_PRICE_OUTPUT_PER_MTOK: 'cheap' }, dir),
    ]);
    for (const run of runs) {
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^thinkthread usage: [^\n]+\n$/);
      expect(run.stderr).not.toContain('    at ');
    }
    expect(runs[0]!.stderr).toContain(`there is no database at ${missing}`);
    expect(existsSync(missing)).toBe(false);
    expect(runs[1]!.stderr).toContain('"mysql:" is not supported');
    expect(runs[1]!.stderr).not.toContain('s3cret');
    expect(runs[2]!.stderr).toContain('Cannot open the database');
    expect(runs[3]!.stderr).toContain('DEFAULT_TIMEZONE: unknown time zone "Mars/Olympus"');
    expect(runs[4]!.stderr).toContain('LLM_PRICE_OUTPUT_PER_MTOK: must be a number');
  });
});
