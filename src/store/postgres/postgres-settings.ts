import type { ChannelSettingsStore } from '../../core/ports/channel-settings-store.js';
import type { PostgresDb } from './postgres-db.js';

/** The channel settings half of the Postgres store; each method is one statement or one transaction. */
export function postgresSettings(db: PostgresDb): ChannelSettingsStore {
  return {
    async getSettings(key) {
      const { rows } = await db.query<{ name: string; value: string }>(
        'read the channel settings',
        'SELECT name, value FROM channel_settings WHERE key = $1 ORDER BY name',
        [key],
      );
      return Object.fromEntries(rows.map((r) => [r.name, r.value]));
    },
    async setSettings(key, values) {
      const entries = Object.entries(values);
      if (entries.length === 0) return;
      await db.query(
        'save the channel settings',
        `INSERT INTO channel_settings (key, name, value, updated_at)
         SELECT $1::text, name, value, $4::bigint FROM unnest($2::text[], $3::text[]) AS t(name, value)
         ON CONFLICT (key, name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
        [key, entries.map(([n]) => n), entries.map(([, v]) => v), Date.now()],
      );
    },
    async resetSettings(key, names) {
      await (names
        ? db.query(
            'reset the channel settings',
            'DELETE FROM channel_settings WHERE key = $1 AND name = ANY($2::text[])',
            [key, [...names]],
          )
        : db.query('reset the channel settings', 'DELETE FROM channel_settings WHERE key = $1', [key]));
    },
  };
}
