import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openPostgresImport } from '../../src/store/postgres/postgres-import.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { parsePostgresUrl } from '../../src/store/postgres/postgres-url.js';
import { openSqliteExport } from '../../src/store/sqlite/sqlite-export.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { aSchedule } from '../contract/schedules-contract.js';
import { dropSchema, freshSchema, postgresSuite, withSchema } from './postgres-test-db.js';

postgresSuite('npm run migrate copies schedules', (url) => {
  let dir: string;
  let schema: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-migrate-schedules-'));
    schema = freshSchema();
  });
  afterEach(async () => {
    rmSync(dir, { recursive: true, force: true });
    await dropSchema(url, schema);
  });

  it('copies every schedule once, unclaimed and whole, however often it runs', async () => {
    const path = join(dir, 'bot.db');
    const sqlite = openSqliteStore(path);
    const weekly = aSchedule('weekly01', { cron: '0 9 * * 1', question: 'Summarise “last week”' });
    const paused = aSchedule('paused01', { paused: true, key: 'slack:T1:C1', settingsKey: 'slack:T1:C1' });
    await sqlite.addSchedule(weekly, 10);
    await sqlite.addSchedule(paused, 10);
    await sqlite.claimDueSchedules({
      now: weekly.nextAt,
      leaseMs: 30_000,
      owner: 'old',
      platforms: ['discord'],
      limit: 5,
    });
    await sqlite.close();

    const target = parsePostgresUrl(withSchema(url, schema), 'TEST_DATABASE_URL');
    for (const expected of [2, 0]) {
      const source = openSqliteExport(path);
      const sink = await openPostgresImport(target);
      try {
        expect(await sink.schedules(source.schedules())).toBe(expected);
      } finally {
        await sink.close();
        source.close();
      }
    }
    const pg = await openPostgresStore(target);
    try {
      expect(await pg.allSchedules()).toEqual([paused, weekly]);
      // The old replica's claim did not come along: the copy is free to fire.
      const due = await pg.claimDueSchedules({
        now: weekly.nextAt,
        leaseMs: 30_000,
        owner: 'new',
        platforms: ['discord'],
        limit: 5,
      });
      expect(due.map((s) => s.id)).toEqual(['weekly01']);
    } finally {
      await pg.close();
    }
  });
});
