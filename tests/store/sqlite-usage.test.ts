import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/store/sqlite-migrations.js';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
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
