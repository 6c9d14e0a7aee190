import type Database from 'better-sqlite3';
import type { AppSecretStore } from '../../core/ports/app-secret-store.js';
import type { FailWith } from './sqlite-usage.js';

/** Kept secrets in SQLite: the first value stored under a name stays. */
export function sqliteAppSecrets(db: Database.Database, fail: FailWith): AppSecretStore {
  const insert = db.prepare<[string, string, number]>(
    'INSERT INTO app_secrets (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING',
  );
  const read = db.prepare<[string], { value: string }>('SELECT value FROM app_secrets WHERE name = ?');
  return {
    async appSecret(name, create) {
      try {
        const held = read.get(name)?.value;
        if (held !== undefined) return held;
        insert.run(name, create(), Date.now());
        return read.get(name)!.value;
      } catch (err) {
        throw fail('read a kept secret', err);
      }
    },
  };
}
