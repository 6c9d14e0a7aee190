// The admin page at scale (issue 30): 1,000,000 usage records over a year (four platforms, 500 channels,
// 2,000 people, three models), 50,000 votes and two weeks of run logs, on SQLite and on Postgres
// (BENCH_DATABASE_URL, else TEST_DATABASE_URL). Times what each of the page's requests reads from the store:
// the overview's aggregates for 7, 30 and 90 days (also narrowed to one model and to one channel) and the
// runs list's first page (also with a search). Target: every one within 300 ms at p95.
// Run alone: npx tsx bench/support/run-scenario.ts admin-stats '{"quick":true}'.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { Store } from '../../src/core/ports/store.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { parsePostgresUrl } from '../../src/store/postgres/postgres-url.js';
import { PG_USAGE_BACKFILL } from '../../src/store/postgres/postgres-usage-rollups.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { ScenarioOptions, ScenarioReport, TargetCheck } from '../support/report.js';
import { percentile, round } from '../support/stats.js';

const DAY = 86_400_000;
const YEAR = 365 * DAY;
const TARGET_MS = 300;

/** The columns of the generated records, from a row number `i`, oldest first (SQL shared by both engines). */
function usageSelect(n: number, now: number, concat: (...parts: string[]) => string, json: string): string {
  const platform =
    "CASE i % 4 WHEN 0 THEN 'discord' WHEN 1 THEN 'slack' WHEN 2 THEN 'web' ELSE 'console' END";
  return `SELECT ${now} - (${n - 1} - i) * ${Math.floor(YEAR / n)}, ${platform},
    ${concat(platform, "':g:c'", 'CAST(i % 500 AS TEXT)')}, ${concat(platform, "':u'", 'CAST(i % 2000 AS TEXT)')},
    CASE i % 3 WHEN 0 THEN 'gpt-4o-mini' WHEN 1 THEN 'gpt-4o' ELSE 'llama3' END, 'tools',
    CASE WHEN i % 50 = 0 THEN 'refused' WHEN i % 50 = 1 THEN 'limited' WHEN i % 25 = 2 THEN 'failed' ELSE 'answered' END,
    2, 500 + i % 1000, 50 + i % 200, (i % 3) * 100,
    CASE i % 5 WHEN 0 THEN '{"calculator":1}'${json} WHEN 1 THEN '{"wikipedia":1,"weather":1}'${json} ELSE '{}'${json} END,
    300 + (i * 7919) % 20000`;
}

const USAGE_COLUMNS = `(at, platform, key, user_id, model, protocol, outcome, model_calls, prompt_tokens,
  completion_tokens, cached_tokens, tools, duration_ms)`;

/** Fills a migrated SQLite file with `n` records, votes and run logs. */
function fillSqlite(path: string, n: number, now: number): void {
  const db = new Database(path);
  const rows = (count: number) =>
    `WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ${count - 1})`;
  const concat = (...parts: string[]) => parts.join(' || ');
  db.exec('BEGIN');
  db.exec(`${rows(n)} INSERT INTO usage ${USAGE_COLUMNS} ${usageSelect(n, now, concat, '')} FROM s`);
  db.exec(`${rows(50_000)} INSERT INTO feedback (platform, run_id, user_id, key, vote, comment, at)
    SELECT 'slack', 'r' || i, 'slack:u' || (i % 2000), 'slack:g:c' || (i % 500),
      CASE WHEN i % 4 = 0 THEN 'down' ELSE 'up' END, NULL, ${now} - i * ${Math.floor(YEAR / 50_000)} FROM s`);
  const logged = Math.floor((n * 14) / 365);
  db.exec(`${rows(logged)} INSERT INTO run_logs (usage_id, at, platform, key, user_id, question, answer, steps)
    SELECT u.id, u.at, u.platform, u.key, u.user_id, 'question number ' || s.i, 'an answer', '[]'
    FROM s JOIN usage u ON u.id = ${n} - s.i`);
  db.exec(`INSERT INTO run_log_tools (usage_id, at, tool, ok, ms)
    SELECT usage_id, at, 'calculator', usage_id % 10 <> 0, 5 FROM run_logs`);
  db.exec('COMMIT');
  db.exec('ANALYZE');
  db.close();
}

/** Fills a migrated Postgres schema likewise. */
async function fillPostgres(url: string, schema: string, n: number, now: number): Promise<void> {
  const client = new pg.Client({ connectionString: url.replace(/[?&]schema=[^&]*/, '') });
  await client.connect();
  try {
    await client.query(`SET search_path TO "${schema}"`);
    const concat = (...parts: string[]) => parts.join(' || ');
    // A million rows one trigger call at a time takes minutes: filled without it, the rollups are then summed
    // in as the migration sums in the records already there.
    await client.query('ALTER TABLE usage DISABLE TRIGGER usage_rollup');
    await client.query(
      `INSERT INTO usage ${USAGE_COLUMNS} ${usageSelect(n, now, concat, '::jsonb')} FROM generate_series(0::bigint, ${n - 1}) AS s(i)`,
    );
    await client.query('ALTER TABLE usage ENABLE TRIGGER usage_rollup');
    await client.query(PG_USAGE_BACKFILL);
    await client.query(`INSERT INTO feedback (platform, run_id, user_id, key, vote, comment, at)
      SELECT 'slack', 'r' || i, 'slack:u' || (i % 2000), 'slack:g:c' || (i % 500),
        CASE WHEN i % 4 = 0 THEN 'down' ELSE 'up' END, NULL, ${now} - i * ${Math.floor(YEAR / 50_000)}
      FROM generate_series(0::bigint, 49999) AS s(i)`);
    const logged = Math.floor((n * 14) / 365);
    await client.query(`INSERT INTO run_logs (usage_id, at, platform, key, user_id, question, answer, steps)
      SELECT u.id, u.at, u.platform, u.key, u.user_id, 'question number ' || s.i, 'an answer', '[]'::jsonb
      FROM generate_series(0::bigint, ${logged - 1}) AS s(i) JOIN usage u ON u.id = ${n} - s.i`);
    await client.query(`INSERT INTO run_log_tools (usage_id, at, tool, ok, ms)
      SELECT usage_id, at, 'calculator', usage_id % 10 <> 0, 5 FROM run_logs`);
    // As autovacuum would by now: statistics, and the visibility map that lets index-only scans skip the heap.
    await client.query('VACUUM ANALYZE usage');
    await client.query('VACUUM ANALYZE feedback');
    await client.query('VACUUM ANALYZE run_logs');
    await client.query('VACUUM ANALYZE run_log_tools');
    for (const table of [
      'usage_hours',
      'usage_day_durations',
      'usage_day_tools',
      'usage_day_people',
      'usage_day_channels',
    ])
      await client.query(`VACUUM ANALYZE ${table}`);
  } finally {
    await client.end();
  }
}

/** The page's requests, each timed `reps` times: label and p50/p95 ms. */
async function measure(store: Store, now: number, reps: number): Promise<[string, number, number][]> {
  const stats =
    (days: number, filter: Record<string, string> = {}) =>
    () =>
      store.adminStats({ since: now - days * DAY, until: now + 1, offsetMs: 0, ...filter }, 10);
  const runs = (search?: string) => () =>
    store.listRuns({ since: now - 90 * DAY, until: now + 1, limit: 50, ...(search ? { search } : {}) });
  const requests: [string, () => Promise<unknown>][] = [
    ['overview, 7 days', stats(7)],
    ['overview, 30 days', stats(30)],
    ['overview, 90 days', stats(90)],
    ['overview, 90 days, one model', stats(90, { model: 'gpt-4o' })],
    ['overview, 90 days, one channel', stats(90, { key: 'slack:g:c1' })],
    ['runs, first page', runs()],
    ['runs, search "number 12345"', runs('number 12345')],
  ];
  const out: [string, number, number][] = [];
  for (const [label, request] of requests) {
    await request();
    const times: number[] = [];
    for (let r = 0; r < reps; r++) {
      const t = performance.now();
      await request();
      times.push(performance.now() - t);
    }
    out.push([label, round(percentile(times, 50), 1), round(percentile(times, 95), 1)]);
  }
  return out;
}

export async function run(options: ScenarioOptions): Promise<ScenarioReport> {
  const n = options.quick ? 100_000 : 1_000_000;
  const reps = options.quick ? 5 : 20;
  const now = Date.now();
  const rows: (string | number)[][] = [];
  const targets: TargetCheck[] = [];
  const notes = [
    `${n.toLocaleString('en-US')} usage records spread evenly over 365 days, 50,000 votes, run logs for the last 14 days; each figure is ${reps} requests after one warm-up.`,
    'The overview reads the usage rollups (one channel: its records by index; one model: its top people and channels from the covering index); the runs list walks the primary key newest first, a search the kept run logs.',
  ];
  const record = (engine: string, figures: [string, number, number][]) => {
    for (const [label, p50, p95] of figures) rows.push([engine, label, p50, p95]);
    const worst = Math.max(...figures.map((f) => f[2]));
    targets.push({
      target: `${engine}: every page request ≤ ${TARGET_MS} ms p95 with ${n.toLocaleString('en-US')} records`,
      measured: `worst p95 ${worst} ms`,
      met: worst <= TARGET_MS,
    });
  };

  const dir = mkdtempSync(join(tmpdir(), 'thinkthread-bench-admin-'));
  try {
    const path = join(dir, 'bot.db');
    openSqliteStore(path).close();
    const t = performance.now();
    fillSqlite(path, n, now);
    notes.push(`SQLite filled in ${round((performance.now() - t) / 1000, 1)} s.`);
    const store = openSqliteStore(path);
    try {
      record('SQLite', await measure(store, now, reps));
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!base) {
    notes.push(
      'Set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a Postgres database to measure Postgres too.',
    );
  } else {
    const schema = `bench_admin_${Date.now().toString(36)}`;
    const u = new URL(base);
    u.searchParams.set('schema', schema);
    const url = u.toString();
    try {
      const store = await openPostgresStore(parsePostgresUrl(url, 'BENCH_DATABASE_URL'));
      try {
        const t = performance.now();
        await fillPostgres(url, schema, n, now);
        notes.push(`Postgres filled in ${round((performance.now() - t) / 1000, 1)} s.`);
        record('Postgres', await measure(store, now, reps));
      } finally {
        await store.close();
      }
    } finally {
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
  }
  return {
    name: 'admin-stats',
    title: `Admin page data with ${n.toLocaleString('en-US')} usage records (ms)`,
    tables: [{ columns: ['store', 'request', 'p50', 'p95'], rows }],
    targets,
    notes,
    data: { records: n, rows },
  };
}
