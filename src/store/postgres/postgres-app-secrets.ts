import type { AppSecretStore } from '../../core/ports/app-secret-store.js';
import type { PostgresDb } from './postgres-db.js';

/** Kept secrets in Postgres: the first value stored under a name stays, whichever replica wrote it. */
export function postgresAppSecrets(db: PostgresDb): AppSecretStore {
  return {
    async appSecret(name, create) {
      const held = await db.query<{ value: string }>(
        'read a kept secret',
        'SELECT value FROM app_secrets WHERE name = $1',
        [name],
      );
      if (held.rows[0]) return held.rows[0].value;
      await db.query(
        'keep a secret',
        'INSERT INTO app_secrets (name, value, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING',
        [name, create(), Date.now()],
      );
      const stored = await db.query<{ value: string }>(
        'read a kept secret',
        'SELECT value FROM app_secrets WHERE name = $1',
        [name],
      );
      return stored.rows[0]!.value;
    },
  };
}
