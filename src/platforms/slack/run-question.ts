import type { webApi } from '@slack/bolt';
import type { AskRequest, Assistant } from '../../core/assistant.js';
import type { Logger } from '../../core/logger.js';
import type { Arrival } from '../../core/ports/run-queue.js';
import type { RunRegistry } from '../shared/run-registry.js';
import { askAndRender, stepsPlacement } from '../shared/run-renderer.js';
import type { RunView } from '../shared/run-view.js';
import type { SlackAsker } from './asker.js';
import type { SlackPlace } from './live-message.js';
import { type AnswerLayout, createSlackRenderer } from './render.js';
import type { UserDirectory } from './user-names.js';

/** A question ready to run: who asked what, in which conversation, and where the answer goes. */
export interface Question {
  key: string;
  /** Whose settings apply: the channel, for a question inside one of its threads. */
  settingsKey?: string | undefined;
  userId: string;
  text: string;
  place: SlackPlace;
  layout: AnswerLayout;
  /** Mrkdwn shown above the answer (for `/ask`, whose command text nobody else sees). */
  context?: string | undefined;
  /** Who asks, for access lists, limits and usage records, and their looked-up name. */
  asker: SlackAsker;
  /** The thread's earlier messages (read in the channel's turn). */
  thread?: AskRequest['context'];
  /** The files attached to the question. */
  attachments?: AskRequest['attachments'];
  /** Told the answer message's ts once the run answered. */
  onAnswered?: ((ts: string) => void) | undefined;
  /** Its place in the channel's line, taken when the event arrived. */
  arrival?: Arrival | undefined;
}

/** What running a question needs. */
export interface RunDeps {
  assistant: Assistant;
  users: UserDirectory;
  intervalMs: number;
  /** ANSWER_MAX_MESSAGES. */
  maxMessages: number;
  logger: Logger;
  /** The runs going on, for their Stop buttons. */
  runs: RunRegistry;
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
  shutdown: AbortSignal,
): Promise<boolean> {
  const logger = deps.logger.child({ key: question.key });
  const settingsKey = question.settingsKey ?? question.key;
  const run = deps.runs.start(question.userId, shutdown);
  const renderer = createSlackRenderer({
    client,
    place: question.place,
    layout: question.layout,
    steps: await stepsPlacement(deps.assistant, settingsKey, logger),
    intervalMs: deps.intervalMs,
    maxMessages: deps.maxMessages,
    logger,
    context: question.context,
    runId: run.id,
  });
  // Not awaited here: the assistant awaits the name in the channel's turn, so lookups cannot reorder questions.
  const author = question.asker.user().then((user) => user.name);
  // Where the placeholder is, so that another replica can say so there if this one dies before answering.
  void renderer.answerTs().then((ts) => {
    if (ts) question.arrival?.placed({ channel: question.place.channel, ts });
  });
  let view: RunView;
  try {
    view = await askAndRender({
      assistant: deps.assistant,
      request: {
        key: question.key,
        settingsKey,
        author,
        text: question.text,
        asker: question.asker.asker,
        context: question.thread,
        attachments: question.attachments,
        arrival: question.arrival,
      },
      renderer,
      signal: run.signal,
      abortedBy: 'shutdown',
      stoppedBy: run.stoppedBy,
      logger,
    });
  } finally {
    run.end();
  }
  const ts = await renderer.answerTs();
  if (ts && view.phase === 'final') question.onAnswered?.(ts);
  return ts !== undefined;
}
