import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/store/sqlite/sqlite-migrations.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { startWorker } from './spawn-worker.js';

// The behaviour every store shares is in sqlite-store.contract.test.ts; this file keeps what is SQLite's own.
describe('SQLite usage store', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-usage-'));
    path = join(dir, 'usage.db');
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('admits exactly the limit in total when three processes race for it', { timeout: 60_000 }, async () => {
    await openSqliteStore(path).close();
    const env = {
      WORKER_DATABASE_URL: `sqlite:${path}`,
      WORKER_OPEN: 'early',
      WORKER_ASKS: '40',
      WORKER_LIMIT: '50',
    };
    const workers = await Promise.all([startWorker(env), startWorker(env), startWorker(env)]);
    const tallies = await Promise.all(workers.map((go) => go()));
    expect(tallies.map((t) => t.failed)).toEqual([0, 0, 0]);
    expect(tallies.reduce((n, t) => n + t.admitted, 0)).toBe(50);
    const store = openSqliteStore(path);
    const stored = await store.records({ since: 0, until: Date.UTC(2027, 0, 1) });
    await store.close();
    expect(stored.filter((r) => r.outcome === 'pending')).toHaveLength(50);
    expect(stored.filter((r) => r.outcome === 'limited')).toHaveLength(70);
  });

  it('names the people of existing usage and feedback as principals (platform:id) when it upgrades', async () => {
    const old = new Database(path);
    for (const migration of MIGRATIONS.slice(0, 5)) old.exec(migration);
    old.pragma('user_version = 5');
    const insert = old.prepare(
      `INSERT INTO usage (at, platform, key, user_id, model, protocol, outcome, model_calls, prompt_tokens,
         completion_tokens, tools, duration_ms) VALUES (?, ?, ?, ?, 'm', 'tools', 'answered', 1, 10, 5, '{}', 1)`,
    );
    insert.run(1, 'slack', 'slack:T:C1', 'U0ADMIN01');
    insert.run(2, 'discord', 'discord:g:c', '1234');
    insert.run(3, 'web', 'web:chat', 'browser123');
    insert.run(4, 'slack', 'slack:T:C1', null);
    old
      .prepare(
        "INSERT INTO feedback (platform, run_id, user_id, key, vote, at) VALUES ('slack', 'r1', 'U1', 'k', 'up', 1)",
      )
      .run();
    old.close();
    const store = openSqliteStore(path);
    try {
      const records = await store.records({ since: 0, until: 10 });
      expect(records.map((r) => r.userId)).toEqual([
        'slack:U0ADMIN01',
        'discord:1234',
        'web:browser123',
        null,
      ]);
      const totals = await store.totals({ since: 0, until: 10, by: 'none', userId: 'slack:U0ADMIN01' });
      expect(totals[0]?.questions).toBe(1);
    } finally {
      await store.close();
    }
    const raw = new Database(path, { readonly: true });
    expect(raw.prepare('SELECT user_id FROM feedback').pluck().all()).toEqual(['slack:U1']);
    raw.close();
  });

  it('adds the usage table to a database made by the first release, keeping its memory', async () => {
    const old = new Database(path);
    old.exec(MIGRATIONS[0]!);
    old.pragma('user_version = 1');
    old.prepare('INSERT INTO conversations (key, updated_at) VALUES (?, ?)').run('k', 1);
    old
      .prepare(
        'INSERT INTO turns (key, author, question, answer, tokens, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run('k', 'a', 'q', 'a', 3, 1);
    old.close();
    const store = openSqliteStore(path);
    try {
      expect((await store.load('k')).turns.map((t) => t.question)).toEqual(['q']);
      const start = { at: 5, platform: 'console', key: 'k', userId: 'u', model: 'm', protocol: 'tools' };
      expect((await store.admit(start, { rates: [], budgets: [] })).admitted).toBe(true);
      expect(await store.records({ since: 0, until: 10 })).toHaveLength(1);
    } finally {
      await store.close();
    }
  });
});
