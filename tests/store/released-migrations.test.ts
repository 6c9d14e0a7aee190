import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PG_MIGRATIONS } from '../../src/store/postgres/postgres-migrations.js';
import { MIGRATIONS } from '../../src/store/sqlite/sqlite-migrations.js';

// Databases in the field ran these texts; the fixture is each engine's migrations as released (issue 33).
const released = JSON.parse(
  readFileSync(new URL('./fixtures/released-migrations.json', import.meta.url), 'utf8'),
) as { sqlite: string[]; postgres: string[] };

describe('released migrations', () => {
  it('renders every released SQLite migration to the very text it had', () => {
    expect(MIGRATIONS.slice(0, released.sqlite.length)).toEqual(released.sqlite);
  });

  it('renders every released Postgres migration to the very text it had', () => {
    expect(PG_MIGRATIONS.slice(0, released.postgres.length)).toEqual(released.postgres);
  });
});
