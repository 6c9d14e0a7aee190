import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/store/sqlite/sqlite-migrations.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';

describe('SQLite migration 7 (recall)', () => {
  it('archives the turns still verbatim in a database of schema 6', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'thinkthread-m7-'));
    try {
      const path = join(dir, 'old.db');
      const old = new Database(path);
      for (const sql of MIGRATIONS.slice(0, 6)) old.exec(sql);
      old.pragma('user_version = 6');
      old.prepare("INSERT INTO conversations (key, updated_at) VALUES ('k', 1)").run();
      old
        .prepare(
          "INSERT INTO turns (key, author, question, answer, tokens, created_at) VALUES ('k', 'Sam', 'the ECONNRESET error', 'retry it', 5, 1000)",
        )
        .run();
      old.close();

      const store = openSqliteStore(path);
      const hits = await store.searchArchive({ key: 'k', query: 'econnreset', limit: 5 });
      expect(hits).toMatchObject([{ author: 'Sam', principal: null, answer: 'retry it', createdAt: 1000 }]);
      const next = await store.appendTurn('k', { author: 'Ana', question: 'q', answer: 'a', tokens: 1 });
      expect(next.id).toBeGreaterThan(hits[0]!.id);
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
