import type { webApi } from '@slack/bolt';
import type { AskOutcome, Assistant } from '../../core/assistant.js';
import type { Logger } from '../../core/logger.js';
import type { SlackPlace } from './live-message.js';
import { type AnswerLayout, createSlackRenderer } from './render.js';
import type { UserNames } from './user-names.js';

/** Shown where an answer would have been when the bot shut down before finishing it. */
export const SHUTDOWN_MESSAGE = 'I was restarted before I could finish; please ask again.';

/** A question ready to run: who asked what, in which conversation, and where the answer goes. */
export interface Question {
  key: string;
  userId: string;
  text: string;
  place: SlackPlace;
  layout: AnswerLayout;
  /** Mrkdwn shown above the answer (for `/ask`, whose command text nobody else sees). */
  context?: string | undefined;
}

/** What running a question needs. */
export interface RunDeps {
  assistant: Assistant;
  userNames: UserNames;
  intervalMs: number;
  logger: Logger;
}

/**
 * Asks the assistant and renders the run in Slack. The placeholder is posted before anything else (the
 * user sees at once that the bot is on it); the display name lookup runs meanwhile. Resolves to false
 * when no answer message could be posted at all (e.g. the bot is not in the channel).
 */
export async function runQuestion(
  deps: RunDeps,
  client: webApi.WebClient,
  question: Question,
  signal: AbortSignal,
): Promise<boolean> {
  const { logger } = deps;
  const renderer = createSlackRenderer({
    client,
    place: question.place,
    layout: question.layout,
    intervalMs: deps.intervalMs,
    logger,
    context: question.context,
  });
  let outcome: AskOutcome | undefined;
  try {
    // Not awaited here: the assistant awaits the name in the channel's turn, so lookups cannot reorder questions.
    const author = deps.userNames(client, question.userId);
    outcome = await deps.assistant.ask(
      { key: question.key, author, text: question.text, signal },
      renderer.onEvent,
    );
  } catch (err) {
    // The assistant reports failures as events; a throw is a bug, and still ends in a message.
    logger.error({ key: question.key, err: err instanceof Error ? err.message : String(err) }, 'ask threw');
  }
  // Cancelled by shutdown: say so, rather than a bare "Cancelled." the asker did not ask for.
  if (signal.aborted && outcome?.status !== 'answered') {
    renderer.onEvent({ type: 'error', code: 'cancelled', message: SHUTDOWN_MESSAGE });
  }
  return renderer.finish(outcome);
}
