import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StorageError } from '../../src/core/errors.js';
import type { ConversationStore, NewTurn } from '../../src/core/ports/conversation-store.js';
import { MIGRATIONS } from '../../src/store/sqlite/sqlite-migrations.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';

const turn = (n: number, author = 'alice'): NewTurn => ({
  author,
  question: `question ${n}`,
  answer: `answer ${n}`,
  tokens: 10 + n,
});

// The behaviour every store shares is in sqlite-store.contract.test.ts; this file keeps what is SQLite's own.
describe('SQLite conversation store', () => {
  let dir: string;
  let path: string;
  const open: ConversationStore[] = [];
  const openStore = (p = path) => {
    const store = openSqliteStore(p);
    open.push(store);
    return store;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-store-'));
    path = join(dir, 'nested', 'deeper', 'memory.db');
  });
  afterEach(async () => {
    for (const store of open.splice(0)) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates the folder, the file and the schema on first start, in WAL mode', async () => {
    openStore();
    expect(existsSync(path)).toBe(true);
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
  });

  it('fails with a StorageError naming the path for a corrupt file', async () => {
    const corrupt = join(dir, 'corrupt.db');
    writeFileSync(corrupt, 'this is not a SQLite database '.repeat(200));
    expect(() => openStore(corrupt)).toThrow(StorageError);
    expect(() => openStore(corrupt)).toThrow(corrupt);
  });

  it('fails with a StorageError naming the path when the folder cannot be created', async () => {
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, 'not a folder');
    const bad = join(blocker, 'memory.db');
    expect(() => openStore(bad)).toThrow(StorageError);
    expect(() => openStore(bad)).toThrow(bad);
  });

  it('fails with a StorageError naming the path when the path is a folder', async () => {
    expect(() => openStore(dir)).toThrow(StorageError);
    expect(() => openStore(dir)).toThrow(dir);
  });

  it('names the database path in the StorageError of a call after close', async () => {
    const store = openStore();
    await store.close();
    await expect(store.appendTurn('k', turn(1))).rejects.toThrow(path);
    await expect(store.ping()).rejects.toThrow(path);
  });
});
