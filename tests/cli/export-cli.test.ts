import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { runCli } from '../helpers/run-cli.js';

describe('npm run export', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-export-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a conversation’s archive (folded turns too) and notes as JSON lines, and nothing of others', {
    timeout: 30_000,
  }, async () => {
    const store = openSqliteStore(join(dir, 'tt.db'));
    const a = await store.appendTurn('k', {
      author: 'Sam',
      question: 'q1',
      answer: 'a1',
      tokens: 1,
      principal: 'web:sam',
    });
    await store.appendTurn('k', { author: 'Ana', question: 'q2', answer: 'a2', tokens: 1 });
    await store.appendTurn('other', { author: 'Eve', question: 'secret', answer: 'x', tokens: 1 });
    const snap = await store.load('k');
    await store.compact('k', {
      throughId: a.id,
      foldedTurns: 1,
      expectedVersion: snap.version,
      summary: { text: 's', tokens: 1 },
    });
    await store.addNote({ key: 'k', subject: null, text: 'deploys on Tuesdays', author: 'web:sam' });
    await store.close();

    const run = await runCli('export', ['--key', 'k'], dir, { DATABASE_URL: 'sqlite:./tt.db' });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.type, l.question ?? l.text])).toEqual([
      ['turn', 'q1'],
      ['turn', 'q2'],
      ['note', 'deploys on Tuesdays'],
    ]);
    expect(lines[0]).toMatchObject({ author: 'Sam', principal: 'web:sam', answer: 'a1' });
    expect(run.stdout).not.toContain('secret');

    const missing = await runCli('export', [], dir, { DATABASE_URL: 'sqlite:./tt.db' });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--key is missing/);
  });
});
