import type { AgentEvent } from '../../core/agent/events.js';
import type { AskOutcome, AskRequest, Assistant } from '../../core/assistant.js';
import type { Logger } from '../../core/logger.js';
import { type AnswerSurface, createAnswerRenderer } from './render.js';

/** What the message and command handlers share. */
export interface DiscordContext {
  assistant: Assistant;
  logger: Logger;
  /** STREAM_EDIT_INTERVAL_MS. */
  intervalMs: number;
  /** Aborted when the adapter stops and its grace period is over: runs still in flight are cancelled. */
  signal: AbortSignal;
}

/** Shown where the answer would have been when the bot stops mid-run. */
export const RESTART_MESSAGE = 'I was restarted before I could finish; please ask again.';

/** Runs one question through the assistant and renders it on `surface` (below `header`, if any); never throws. */
export async function answer(
  request: Omit<AskRequest, 'signal'>,
  surface: AnswerSurface,
  ctx: DiscordContext,
  header?: string,
): Promise<void> {
  const log = ctx.logger.child({ key: request.key });
  const renderer = createAnswerRenderer({
    surface,
    question: request.text,
    intervalMs: ctx.intervalMs,
    logger: log,
    header,
  });
  const onEvent = (event: AgentEvent) =>
    renderer.onEvent(
      event.type === 'error' && event.code === 'cancelled' && ctx.signal.aborted
        ? { ...event, message: RESTART_MESSAGE }
        : event,
    );
  let outcome: AskOutcome;
  try {
    outcome = await ctx.assistant.ask({ ...request, signal: ctx.signal }, onEvent);
  } catch (err) {
    // The assistant promises not to throw; if it does, the asker still gets an ending.
    log.error({ err }, 'assistant.ask threw');
    outcome = { status: 'failed', code: 'internal', message: 'Something went wrong while answering.' };
    onEvent({ type: 'error', code: 'internal', message: outcome.message });
  }
  await renderer.finish(outcome);
}
