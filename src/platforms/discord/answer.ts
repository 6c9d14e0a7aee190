import type { AskRequest, Assistant } from '../../core/assistant.js';
import type { ThreadFollows } from '../../core/follow/thread-follows.js';
import type { Logger } from '../../core/logger.js';
import type { RunQueue } from '../../core/ports/run-queue.js';
import type { ChannelKnowledge } from '../../knowledge/channel-knowledge.js';
import type { DocumentLimits } from '../shared/read-document.js';
import type { RunControl, RunRegistry } from '../shared/run-registry.js';
import { askAndRenderRun, stepsPlacement } from '../shared/run-renderer.js';
import type { RunView } from '../shared/run-view.js';
import type { ForwardComments } from './forward-comment.js';
import type { MessageHistory } from './message-history.js';
import { type AnswerSurface, createDiscordRenderer } from './render.js';

/** What the message and command handlers share. */
export interface DiscordContext {
  assistant: Assistant;
  logger: Logger;
  /** STREAM_EDIT_INTERVAL_MS. */
  intervalMs: number;
  /** ANSWER_MAX_MESSAGES. */
  maxMessages: number;
  /** Aborted when the adapter stops and its grace period is over: runs still in flight are cancelled. */
  signal: AbortSignal;
  /** The runs going on, for their Stop buttons. */
  runs: RunRegistry;
  /** ADMIN_USERS: they may stop anyone's answer. */
  adminUsers: readonly string[];
  /** Reads the thread and reply chain a question follows. */
  history: MessageHistory;
  /** ATTACHMENT_MAX_BYTES. */
  attachmentMaxBytes: number;
  /** PDF and Office attachments: read to text within these. */
  documents?: DocumentLimits | undefined;
  /** Where files read in a channel are kept for its `search_knowledge`; unset: they are not kept. */
  knowledge?: ChannelKnowledge | undefined;
  /** Admits each message once and gives it its place in the shared line (several replicas). */
  line?: Pick<RunQueue, 'arrive'> | undefined;
  /** The clock interaction tokens are timed on (Date.now but in tests). */
  now: () => number;
  /** Threads answered in are followed (follow-ups need no mention); unset: only mentions are answered. */
  follows?: ThreadFollows | undefined;
  /** DISCORD_COMPONENTS_V2: steps in one message and approval prompts go as components v2 cards. */
  componentsV2?: boolean | undefined;
  /** Pairs a forward in a DM with the comment sent right after it; unset: each is answered on its own. */
  forwardComments?: ForwardComments | undefined;
}

/**
 * Runs one question through the assistant as `run` and renders it on `surface` (below `header`, if any),
 * its Stop button replaced by 👍 / 👎 at the end; never throws. Resolves to the ended run view.
 */
export async function answer(
  request: Omit<AskRequest, 'signal'>,
  surface: AnswerSurface,
  ctx: DiscordContext,
  run: RunControl,
  header?: string,
): Promise<RunView> {
  const logger = ctx.logger.child({ key: request.key });
  const steps = await stepsPlacement(ctx.assistant, request.settingsKey ?? request.key, logger);
  const renderer = createDiscordRenderer({
    surface,
    steps,
    question: request.text,
    intervalMs: ctx.intervalMs,
    maxMessages: ctx.maxMessages,
    logger,
    header,
    runId: run.id,
    componentsV2: ctx.componentsV2,
  });
  return askAndRenderRun(run, { assistant: ctx.assistant, request, renderer, logger });
}
