import type { PlatformEntry } from '../types.js';

/** The web chat: on when WEB_CHAT=true; its page and API are served on the shared HTTP server. */
export const webPlatform: PlatformEntry = {
  name: 'web',
  enabled: (config) => config.WEB_CHAT,
  needsHttp: (config) => config.WEB_CHAT,
  async create(deps) {
    const { createWebAdapter } = await import('./create-web-adapter.js');
    // The conversations (sidebar, answers with their steps) live in the bot's own database.
    return createWebAdapter(deps, { chats: deps.store });
  },
};
