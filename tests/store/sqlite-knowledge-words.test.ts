import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BASE_SCOPE } from '../../src/core/ports/knowledge-store.js';
import { MIGRATIONS } from '../../src/store/sqlite/sqlite-migrations.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';

const file = (path: string, passages: number) => ({
  scope: BASE_SCOPE,
  path,
  size: 100,
  modifiedAt: 1,
  indexedAt: 1,
  passages,
});

describe('SQLite knowledge search by word (migration 19)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-m19-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the passages a database of schema 18 kept, after the upgrade', async () => {
    const path = join(dir, 'old.db');
    const old = new Database(path);
    const before = MIGRATIONS.findIndex((sql) => sql.includes('knowledge_words'));
    for (const sql of MIGRATIONS.slice(0, before)) old.exec(sql);
    old.pragma(`user_version = ${before}`);
    old
      .prepare("INSERT INTO knowledge_files VALUES ('base', 'handbook/oncall.md', 100, 1, 1, 1, NULL, NULL)")
      .run();
    old
      .prepare(
        "INSERT INTO knowledge_passages (scope, path, ordinal, heading, text) VALUES ('base', 'handbook/oncall.md', 0, 'Rotation', 'On-call swaps need approval.')",
      )
      .run();
    old.close();

    const store = openSqliteStore(path);
    const hits = await store.searchKnowledge([BASE_SCOPE], 'approving swap', 5);
    expect(hits.map((h) => h.heading)).toEqual(['Rotation']);
    await store.forgetKnowledgeFile(BASE_SCOPE, 'handbook/oncall.md');
    expect(await store.searchKnowledge([BASE_SCOPE], 'swaps', 5)).toEqual([]);
    await store.close();
  });

  it('finds words inside Chinese and Japanese text, which has no spaces between words', async () => {
    const store = openSqliteStore(join(dir, 'kb.db'));
    await store.putKnowledgeFile(file('zh/值班.md', 2), [
      { heading: '交换', text: '值班交换需要经理提前两天批准。' },
      { heading: '报销', text: '酒店费用每晚最多报销一百五十欧元。' },
    ]);
    await store.putKnowledgeFile(file('ja/当番.md', 1), [
      { text: '当番の交代は二日前までに申請してください。' },
    ]);
    expect((await store.searchKnowledge([BASE_SCOPE], '值班交换', 5)).map((h) => h.heading)).toEqual([
      '交换',
    ]);
    expect((await store.searchKnowledge([BASE_SCOPE], '酒店 报销', 5)).map((h) => h.heading)).toEqual([
      '报销',
    ]);
    expect((await store.searchKnowledge([BASE_SCOPE], '交代', 5)).map((h) => h.path)).toEqual(['ja/当番.md']);
    await store.close();
  });
});
