import type { Store } from '../../../src/core/ports/store.js';
import { memoryWebSessions } from '../../../src/platforms/web/memory-web-sessions.js';
import { webSessionsContract } from '../../contract/web-sessions-contract.js';

// The web chat's fallback when it is given no store (sessions end with the process): the same contract,
// a "restart" being the same process.
webSessionsContract('this process’s memory', async () => {
  const store = memoryWebSessions() as unknown as Store;
  return { store, reopen: async () => store, cleanup: async () => {} };
});
