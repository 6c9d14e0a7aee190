import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConversationStore } from '../../src/core/ports/conversation-store.js';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import { storeContract } from '../contract/store-contract.js';

storeContract('SQLite file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'thinkthread-store-contract-'));
  const path = join(dir, 'memory.db');
  const opened: ConversationStore[] = [];
  const open = () => {
    const store = openSqliteStore(path);
    opened.push(store);
    return store;
  };
  return {
    store: open(),
    reopen: async () => open(),
    async cleanup() {
      for (const store of opened) await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
