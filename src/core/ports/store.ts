import type { AppSecretStore } from './app-secret-store.js';
import type { ApprovalStore } from './approval-store.js';
import type { ApprovalWaitStore } from './approval-wait-store.js';
import type { ArchiveEmbeddingStore, ArchiveStore } from './archive-store.js';
import type { ChannelSettingsStore } from './channel-settings-store.js';
import type { ConversationStore } from './conversation-store.js';
import type { FeedbackStore } from './feedback-store.js';
import type { KnowledgeStore } from './knowledge-store.js';
import type { NotesStore } from './notes-store.js';
import type { RunLogStore } from './run-log-store.js';
import type { ScheduleStore } from './schedule-store.js';
import type { ThreadFollowStore } from './thread-follow-store.js';
import type { UsageStore } from './usage-store.js';
import type { WebChatStore } from './web-chat-store.js';
import type { WebSessionStore } from './web-session-store.js';

/**
 * One database behind every port: memory (with its archive and notes), usage records, channel settings and
 * feedback, the web chat's conversations and sign-in sessions, schedules, run logs and tool-call approvals (the root hands it to the core).
 */
export type Store = ConversationStore &
  UsageStore &
  ChannelSettingsStore &
  FeedbackStore &
  ArchiveStore &
  ArchiveEmbeddingStore &
  NotesStore &
  WebChatStore &
  WebSessionStore &
  ScheduleStore &
  RunLogStore &
  ApprovalStore &
  ApprovalWaitStore &
  AppSecretStore &
  ThreadFollowStore &
  KnowledgeStore;
