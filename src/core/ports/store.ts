import type { ConversationStore } from './conversation-store.js';
import type { UsageStore } from './usage-store.js';

/** One database behind both ports: conversation memory and usage records (the root hands it to the core). */
export type Store = ConversationStore & UsageStore;
