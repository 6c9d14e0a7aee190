import type Database from 'better-sqlite3';
import type { ChannelSettingsStore, StoredSettings } from '../../core/ports/channel-settings-store.js';
import type { FailWith } from './sqlite-usage.js';

/** The channel settings half of the SQLite store; each method is one transaction. */
export function sqliteSettings(db: Database.Database, fail: FailWith): ChannelSettingsStore {
  const select = db.prepare<[string], { name: string; value: string }>(
    'SELECT name, value FROM channel_settings WHERE key = ? ORDER BY name',
  );
  const upsert = db.prepare<[string, string, string, number]>(
    `INSERT INTO channel_settings (key, name, value, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (key, name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  );
  const deleteAll = db.prepare<[string]>('DELETE FROM channel_settings WHERE key = ?');
  const deleteOne = db.prepare<[string, string]>('DELETE FROM channel_settings WHERE key = ? AND name = ?');
  const set = db.transaction((key: string, values: StoredSettings) => {
    const now = Date.now();
    for (const [name, value] of Object.entries(values)) upsert.run(key, name, value, now);
  });
  const reset = db.transaction((key: string, names: readonly string[] | undefined) => {
    if (!names) deleteAll.run(key);
    else for (const name of names) deleteOne.run(key, name);
  });
  return {
    async getSettings(key) {
      try {
        return Object.fromEntries(select.all(key).map((r) => [r.name, r.value]));
      } catch (err) {
        throw fail('read the channel settings', err);
      }
    },
    async setSettings(key, values) {
      try {
        set.immediate(key, values);
      } catch (err) {
        throw fail('save the channel settings', err);
      }
    },
    async resetSettings(key, names) {
      try {
        reset.immediate(key, names);
      } catch (err) {
        throw fail('reset the channel settings', err);
      }
    },
  };
}
