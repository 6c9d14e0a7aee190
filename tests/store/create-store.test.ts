import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { createStore, sqlitePathOf } from '../../src/store/create-store.js';

describe('sqlitePathOf', () => {
  it('resolves relative paths against the working folder', () => {
    expect(sqlitePathOf('sqlite:./data/thinkthread.db', '/srv/app')).toBe('/srv/app/data/thinkthread.db');
    expect(sqlitePathOf('sqlite:data/x.db', '/srv/app')).toBe('/srv/app/data/x.db');
  });

  it('keeps absolute paths and accepts the URL form with slashes', () => {
    expect(sqlitePathOf('sqlite:/var/lib/thinkthread.db', '/srv')).toBe('/var/lib/thinkthread.db');
    expect(sqlitePathOf('sqlite:///var/lib/thinkthread.db', '/srv')).toBe('/var/lib/thinkthread.db');
  });

  it('accepts an in-memory database', () => {
    expect(sqlitePathOf('sqlite::memory:')).toBe(':memory:');
  });

  it('rejects other schemes without echoing credentials', () => {
    const attempt = () => sqlitePathOf('mysql://bot:s3cret-pass@db.internal/thinkthread');
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/DATABASE_URL: "mysql:" is not supported; supported: sqlite:.* and postgres:/);
    try {
      attempt();
    } catch (err) {
      expect(String((err as Error).message)).not.toContain('s3cret');
    }
  });

  it('rejects a URL without a scheme or without a path', () => {
    expect(() => sqlitePathOf('./data/x.db')).toThrow(/DATABASE_URL: has no scheme/);
    expect(() => sqlitePathOf('sqlite:')).toThrow(/names no file/);
  });
});

describe('createStore', () => {
  it('opens a working SQLite store from a URL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'thinkthread-url-'));
    try {
      const store = await createStore(`sqlite:${join(dir, 'm.db')}`);
      await store.appendTurn('k', { author: 'a', question: 'q', answer: 'a', tokens: 3 });
      expect((await store.load('k')).turns).toHaveLength(1);
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('opens an in-memory store', async () => {
    const store = await createStore('sqlite::memory:');
    expect((await store.load('k')).turns).toEqual([]);
    await store.close();
  });

  it('rejects an unsupported scheme', async () => {
    await expect(createStore('redis://localhost:6379')).rejects.toBeInstanceOf(ConfigError);
  });
});
