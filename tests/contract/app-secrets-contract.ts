import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoreFixture } from './store-contract.js';

/** Kept secrets: every store implementation (SQLite, Postgres) keeps the first one made, for good. */
export function appSecretsContract(name: string, open: () => Promise<StoreFixture>): void {
  describe(`app secrets contract: ${name}`, () => {
    let f: StoreFixture;
    beforeEach(async () => {
      f = await open();
    });
    afterEach(async () => {
      await f.cleanup();
    });

    it('keeps the first secret made under a name, across a restart and for callers racing to make one', async () => {
      let made = 0;
      const create = () => `secret-${++made}`;
      const other = await f.reopen();
      const raced = await Promise.all([f.store.appSecret('k', create), other.appSecret('k', create)]);
      expect(new Set(raced).size).toBe(1);
      expect(await (await f.reopen()).appSecret('k', () => 'never stored')).toBe(raced[0]);
      expect(await f.store.appSecret('another', () => 'its own')).toBe('its own');
    });
  });
}
