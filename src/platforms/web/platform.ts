import type { PlatformEntry } from '../types.js';

/** The web chat: on when WEB_CHAT=true; its page and API are served on the shared HTTP server. */
export const webPlatform: PlatformEntry = {
  name: 'web',
  enabled: (config) => config.WEB_CHAT,
  needsHttp: (config) => config.WEB_CHAT,
  async create(deps) {
    const [{ createWebAdapter }, { createStore }] = await Promise.all([
      import('./create-web-adapter.js'),
      import('../../store/create-store.js'),
    ]);
    // The conversations (sidebar, answers with their steps) live in the bot's database, reached by a
    // connection of the web chat's own (a small pool on Postgres), closed when the web chat stops.
    const chats = await createStore(deps.config.DATABASE_URL, { poolSize: 2 });
    return createWebAdapter(deps, { chats, onStopped: () => chats.close() });
  },
};
