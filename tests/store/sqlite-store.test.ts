import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StorageError } from '../../src/core/errors.js';
import type { ConversationStore, NewTurn } from '../../src/core/ports/conversation-store.js';
import { MIGRATIONS } from '../../src/store/sqlite-migrations.js';
import { openSqliteStore } from '../../src/store/sqlite-store.js';

const turn = (n: number, author = 'alice'): NewTurn => ({
  author,
  question: `question ${n}`,
  answer: `answer ${n}`,
  tokens: 10 + n,
});

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

  it('returns an empty snapshot for an unknown key', async () => {
    const store = openStore();
    expect(await store.load('console:nobody')).toEqual({
      summary: null,
      summarizedTurns: 0,
      turns: [],
      version: 0,
    });
  });

  it('appends turns in order with increasing ids and their token counts', async () => {
    const store = openStore();
    const a = await store.appendTurn('k', turn(1));
    const b = await store.appendTurn('k', turn(2, 'bob'));
    expect(b.id).toBeGreaterThan(a.id);
    const snap = await store.load('k');
    expect(snap.turns.map((t) => [t.author, t.question, t.answer, t.tokens])).toEqual([
      ['alice', 'question 1', 'answer 1', 11],
      ['bob', 'question 2', 'answer 2', 12],
    ]);
    expect(snap.turns[0]!.createdAt).toBeTypeOf('number');
  });

  describe('a windowed load (what the agent is shown)', () => {
    const fill = async (store: ConversationStore, tokens: number[]) => {
      for (const [i, t] of tokens.entries()) await store.appendTurn('w', { ...turn(i + 1), tokens: t });
    };
    const shown = async (tokens: number[], maxTokens: number, keep: number) => {
      const store = openStore();
      await fill(store, tokens);
      return (await store.load('w', { maxTokens, keep })).turns.map((t) => t.question);
    };

    it('returns every turn when they fit', async () => {
      expect(await shown([50, 50, 50], 200, 2)).toEqual(['question 1', 'question 2', 'question 3']);
    });

    it('returns only the newest within the token window when history piled up', async () => {
      const questions = await shown(Array(30).fill(30), 200, 2);
      expect(questions).toEqual([
        'question 25',
        'question 26',
        'question 27',
        'question 28',
        'question 29',
        'question 30',
      ]);
    });

    it('always returns the newest `keep` turns, however large', async () => {
      expect(await shown([500, 500, 500], 200, 2)).toEqual(['question 2', 'question 3']);
    });

    it('returns nothing for an unknown key, and keeps the summary and version', async () => {
      const store = openStore();
      expect((await store.load('nobody', { maxTokens: 100, keep: 2 })).turns).toEqual([]);
      await fill(store, [10, 10]);
      const full = await store.load('w');
      const windowed = await store.load('w', { maxTokens: 100, keep: 1 });
      expect(windowed.version).toBe(full.version);
      expect(windowed.summarizedTurns).toBe(full.summarizedTurns);
    });
  });

  it('keeps keys apart', async () => {
    const store = openStore();
    await store.appendTurn('discord:g:1', turn(1));
    await store.appendTurn('discord:g:2', turn(2));
    expect((await store.load('discord:g:1')).turns.map((t) => t.question)).toEqual(['question 1']);
    expect((await store.load('discord:g:2')).turns.map((t) => t.question)).toEqual(['question 2']);
  });

  it('compacts: replaces the turns up to an id by the summary, keeping later ones', async () => {
    const store = openStore();
    const ids: number[] = [];
    for (let n = 1; n <= 4; n++) ids.push((await store.appendTurn('k', turn(n))).id);
    const before = await store.load('k');
    const ok = await store.compact('k', {
      throughId: ids[1]!,
      foldedTurns: 2,
      expectedVersion: before.version,
      summary: { text: 'alice asked 1 and 2', tokens: 6 },
    });
    expect(ok).toBe(true);
    const after = await store.load('k');
    expect(after.summary).toEqual({ text: 'alice asked 1 and 2', tokens: 6 });
    expect(after.summarizedTurns).toBe(2);
    expect(after.turns.map((t) => t.question)).toEqual(['question 3', 'question 4']);
    expect(after.version).toBeGreaterThan(before.version);
  });

  it('compacts without disturbing turns appended after the snapshot', async () => {
    const store = openStore();
    const first = await store.appendTurn('k', turn(1));
    const snap = await store.load('k');
    await store.appendTurn('k', turn(2));
    expect(
      await store.compact('k', {
        throughId: first.id,
        foldedTurns: 1,
        expectedVersion: snap.version,
        summary: { text: 's', tokens: 1 },
      }),
    ).toBe(true);
    expect((await store.load('k')).turns.map((t) => t.question)).toEqual(['question 2']);
  });

  it('refuses a stale compaction and changes nothing', async () => {
    const store = openStore();
    const first = await store.appendTurn('k', turn(1));
    await store.appendTurn('k', turn(2));
    const snap = await store.load('k');
    const compaction = {
      throughId: first.id,
      foldedTurns: 1,
      expectedVersion: snap.version,
      summary: { text: 'one', tokens: 1 },
    };
    expect(await store.compact('k', compaction)).toBe(true);
    const after = await store.load('k');
    // Same compaction again: the version moved on.
    expect(await store.compact('k', { ...compaction, summary: { text: 'again', tokens: 1 } })).toBe(false);
    // Right version but the turn count does not match what is stored: rolled back whole.
    expect(
      await store.compact('k', {
        throughId: after.turns[0]!.id,
        foldedTurns: 2,
        expectedVersion: after.version,
        summary: { text: 'wrong', tokens: 1 },
      }),
    ).toBe(false);
    expect(await store.load('k')).toEqual(after);
  });

  it('refuses a compaction from an older version even when the turn count happens to match', async () => {
    const store = openStore();
    const ids: number[] = [];
    for (let n = 1; n <= 3; n++) ids.push((await store.appendTurn('k', turn(n))).id);
    const stale = await store.load('k');
    await store.compact('k', {
      throughId: ids[0]!,
      foldedTurns: 1,
      expectedVersion: stale.version,
      summary: { text: 'turn 1', tokens: 2 },
    });
    const current = await store.load('k');
    expect(
      await store.compact('k', {
        throughId: ids[2]!,
        foldedTurns: 2,
        expectedVersion: stale.version,
        summary: { text: 'made without turn 1', tokens: 3 },
      }),
    ).toBe(false);
    expect(await store.load('k')).toEqual(current);
  });

  it('reset forgets turns and summary, and refuses compactions planned before it', async () => {
    const store = openStore();
    const first = await store.appendTurn('k', turn(1));
    await store.appendTurn('other', turn(9));
    const snap = await store.load('k');
    await store.reset('k');
    const after = await store.load('k');
    expect(after.turns).toEqual([]);
    expect(after.summary).toBeNull();
    expect(after.summarizedTurns).toBe(0);
    expect(
      await store.compact('k', {
        throughId: first.id,
        foldedTurns: 1,
        expectedVersion: snap.version,
        summary: { text: 'from before the reset', tokens: 3 },
      }),
    ).toBe(false);
    expect((await store.load('k')).summary).toBeNull();
    expect((await store.load('other')).turns).toHaveLength(1);
  });

  it('never reuses ids after a reset', async () => {
    const store = openStore();
    const a = await store.appendTurn('k', turn(1));
    await store.reset('k');
    const b = await store.appendTurn('k', turn(2));
    expect(b.id).toBeGreaterThan(a.id);
  });

  it('persists across reopening the file', async () => {
    const store = openStore();
    await store.appendTurn('k', turn(1));
    await store.close();
    const again = openStore();
    expect((await again.load('k')).turns.map((t) => t.question)).toEqual(['question 1']);
  });

  it('lets only one of two processes sharing the file apply the same compaction', async () => {
    const a = openStore();
    const b = openStore();
    const first = await a.appendTurn('k', turn(1));
    await b.appendTurn('k', turn(2));
    const snap = await b.load('k');
    const base = { throughId: first.id, foldedTurns: 1, expectedVersion: snap.version };
    const results = [
      await a.compact('k', { ...base, summary: { text: 'by a', tokens: 2 } }),
      await b.compact('k', { ...base, summary: { text: 'by b', tokens: 2 } }),
    ];
    expect(results).toEqual([true, false]);
    const after = await b.load('k');
    expect(after.summary?.text).toBe('by a');
    expect(after.summarizedTurns).toBe(1);
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

  it('fails with a StorageError after close', async () => {
    const store = openStore();
    await store.close();
    await expect(store.load('k')).rejects.toBeInstanceOf(StorageError);
    await expect(store.appendTurn('k', turn(1))).rejects.toThrow(path);
  });
});
