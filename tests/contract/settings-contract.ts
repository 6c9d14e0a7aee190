import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StorageError } from '../../src/core/errors.js';
import type { ChannelSettingsStore } from '../../src/core/ports/channel-settings-store.js';
import type { StoreFixture } from './store-contract.js';

/** The channel settings behaviour every store implementation must show. */
export function settingsContract(name: string, open: () => Promise<StoreFixture>): void {
  describe(`channel settings contract: ${name}`, () => {
    let f: StoreFixture;
    let store: ChannelSettingsStore;
    beforeEach(async () => {
      f = await open();
      store = f.store;
    });
    afterEach(async () => {
      await f.cleanup();
    });

    it('has no settings for a key never set', async () => {
      expect(await store.getSettings('discord:g:never')).toEqual({});
    });

    it('saves settings, replaces a value, and keeps the others', async () => {
      await store.setSettings('discord:g:1', { prompt: 'Answer in French.', model: 'big' });
      await store.setSettings('discord:g:1', { model: 'small', steps: 'off' });
      expect(await store.getSettings('discord:g:1')).toEqual({
        prompt: 'Answer in French.',
        model: 'small',
        steps: 'off',
      });
    });

    it('keeps keys apart', async () => {
      await store.setSettings('discord:g:1', { protocol: 'react' });
      await store.setSettings('discord:g:2', { protocol: 'tools' });
      expect(await store.getSettings('discord:g:1')).toEqual({ protocol: 'react' });
      expect(await store.getSettings('discord:g:2')).toEqual({ protocol: 'tools' });
    });

    it('stores any text whole: newlines, quotes, emoji, 2,000 characters', async () => {
      const prompt = `Line one\nLine "two" — it's ☃️ ${'x'.repeat(1960)}`;
      await store.setSettings('k', { prompt });
      expect((await store.getSettings('k')).prompt).toBe(prompt);
    });

    it('resets the named settings only, or all of them', async () => {
      await store.setSettings('k', { prompt: 'p', model: 'm', tools: 'calculator' });
      await store.setSettings('other', { prompt: 'kept' });
      await store.resetSettings('k', ['tools', 'not-set']);
      expect(await store.getSettings('k')).toEqual({ prompt: 'p', model: 'm' });
      await store.resetSettings('k');
      expect(await store.getSettings('k')).toEqual({});
      expect(await store.getSettings('other')).toEqual({ prompt: 'kept' });
    });

    it('saving nothing changes nothing', async () => {
      await store.setSettings('k', { model: 'm' });
      await store.setSettings('k', {});
      expect(await store.getSettings('k')).toEqual({ model: 'm' });
    });

    it('keeps settings across a reopen, as after a restart', async () => {
      await store.setSettings('slack:T:C', { prompt: 'Be brief.', steps: 'inline' });
      const again = await f.reopen();
      expect(await again.getSettings('slack:T:C')).toEqual({ prompt: 'Be brief.', steps: 'inline' });
    });

    it('fails with a StorageError once closed', async () => {
      await f.store.close();
      await expect(store.getSettings('k')).rejects.toBeInstanceOf(StorageError);
      await expect(store.setSettings('k', { model: 'm' })).rejects.toBeInstanceOf(StorageError);
    });
  });
}
