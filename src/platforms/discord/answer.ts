import type { AskRequest, Assistant } from '../../core/assistant.js';
import type { Logger } from '../../core/logger.js';
import type { RunQueue } from '../../core/ports/run-queue.js';
import { askAndRender } from '../shared/run-renderer.js';
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
  /** Admits each message once and gives it its place in the shared line (several replicas). */
  runs?: Pick<RunQueue, 'arrive'> | undefined;
}

/** Runs one question through the assistant and renders it on `surface` (below `header`, if any); never throws. */
export async function answer(
  request: Omit<AskRequest, 'signal'>,
  surface: AnswerSurface,
  ctx: DiscordContext,
  header?: string,
): Promise<void> {
  const logger = ctx.logger.child({ key: request.key });
  const renderer = createDiscordRenderer({
    surface,
    question: request.text,
    intervalMs: ctx.intervalMs,
    maxMessages: ctx.maxMessages,
    logger,
    header,
  });
  await askAndRender({
    assistant: ctx.assistant,
    request,
    renderer,
    signal: ctx.signal,
    abortedBy: 'shutdown',
    logger,
  });
}
