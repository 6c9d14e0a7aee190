import type { ConversationStore } from './conversation-store.js';
import type { FeedbackStore } from './feedback-store.js';
import type { UsageStore } from './usage-store.js';

/** One database behind the ports: conversation memory, usage records and feedback (the root hands it to the core). */
export type Store = ConversationStore & UsageStore & FeedbackStore;
