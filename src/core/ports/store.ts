import type { ChannelSettingsStore } from './channel-settings-store.js';
import type { ConversationStore } from './conversation-store.js';
import type { UsageStore } from './usage-store.js';

/** One database behind every port: conversation memory, usage records and channel settings (the root hands it to the core). */
export type Store = ConversationStore & UsageStore & ChannelSettingsStore;
