import type { webApi } from '@slack/bolt';
import type { Logger } from '../../core/logger.js';
import type { StepsPlacement } from '../../core/settings/channel-settings.js';
import { renderIncrementally } from '../shared/render-incrementally.js';
import type { RunRenderer } from '../shared/run-renderer.js';
import { outcomeText, placeholderText } from '../shared/run-view.js';
import { answerCutNote, moreSteps, WORDING } from '../shared/wording.js';
import { formatStep } from './format-steps.js';
import { buildMessage, markdownToMessages, type SlackMessage } from './limits.js';
import { createLiveMessage, postMessage, type SlackPlace } from './live-message.js';
import { plainToMrkdwn } from './mrkdwn.js';
import { feedbackBlock, stopBlock } from './run-blocks.js';
import { createStepReplies, createStepsMessage, type Steps } from './steps-layout.js';

/**
 * Where a run's output goes.
 * - `channel`: the answer is a new message in the channel (or DM) and each step a reply in its thread,
 *   so the channel shows one message with "N replies" and the reasoning stays folded away.
 * - `thread`: the question was asked inside a thread; the answer is a reply there, and the steps share
 *   one more reply that is edited as they arrive (a thread cannot hold a thread of its own).
 */
export type AnswerLayout = 'channel' | 'thread';

/** Options of {@link createSlackRenderer}. */
export interface SlackRendererOptions {
  client: webApi.WebClient;
  /** The channel, plus the thread's ts for the `thread` layout. */
  place: SlackPlace;
  layout: AnswerLayout;
  intervalMs: number;
  logger: Logger;
  /** Mrkdwn shown above the answer, e.g. who asked what with `/ask` (the command itself is invisible). */
  context?: string | undefined;
  /** ANSWER_MAX_MESSAGES: messages one answer may take; past them it is cut with a note. */
  maxMessages: number;
  /**
   * The channel's `steps` setting: `thread` (default) as `layout` says, `inline` in one edited message
   * beside the answer, `off` not shown.
   */
  steps?: StepsPlacement | undefined;
  /** The run the answer's buttons act on: Stop while it is written, 👍 / 👎 once it is; none without it. */
  runId?: string | undefined;
}

/** Renders the run view in Slack messages. */
export interface SlackRenderer extends RunRenderer {
  /** After finish: false when the answer message could not be posted at all. */
  delivered(): Promise<boolean>;
  /** The answer message's ts once posted (the "thinking" placeholder), undefined if it never could be. */
  answerTs(): Promise<string | undefined>;
}

type AnswerView =
  | { kind: 'thinking'; text: string }
  | { kind: 'stream'; markdown: string }
  | { kind: 'done'; message: SlackMessage; feedback: boolean };

/** Posts the "thinking" placeholder at once, streams the answer into it, and lays out the steps per `layout`. */
export function createSlackRenderer(options: SlackRendererOptions): SlackRenderer {
  const { client, place, logger, context, runId } = options;
  const withStop = (message: SlackMessage): SlackMessage =>
    runId ? { ...message, blocks: [...message.blocks, stopBlock(runId)] } : message;
  const warn = (what: string) => (err: unknown) => logger.warn({ err, channel: place.channel }, what);

  const answer = createLiveMessage<AnswerView>({
    client,
    place,
    intervalMs: options.intervalMs,
    onError: warn('could not update the answer message'),
    render: (view) => {
      switch (view.kind) {
        case 'thinking':
          return withStop(buildMessage([`_${plainToMrkdwn(view.text)}_`], context));
        case 'stream': {
          const [first, ...more] = markdownToMessages(view.markdown, context);
          // Only the first message is streamed; the rest is posted once the answer is complete.
          return withStop(more.length > 0 ? withEllipsis(first!) : first!);
        }
        case 'done':
          return runId && view.feedback
            ? { ...view.message, blocks: [...view.message.blocks, feedbackBlock(runId)] }
            : view.message;
      }
    },
  });
  answer.set({ kind: 'thinking', text: WORDING.thinking });

  // Steps go out only once the answer message exists: under it (channel) or after it (thread).
  const steps: Steps =
    options.steps === 'off'
      ? { add: () => {}, finish: async () => {} }
      : options.layout === 'channel' && options.steps !== 'inline'
        ? createStepReplies({
            client,
            channel: place.channel,
            parent: answer.posted,
            onError: warn('could not post a step'),
          })
        : createStepsMessage({
            client,
            place,
            intervalMs: options.intervalMs,
            after: answer.posted(),
            onError: warn('could not update the steps message'),
          });

  const renderer = renderIncrementally({
    step: (step) => steps.add(formatStep(step)),
    streaming: (markdown, view) =>
      answer.set(markdown ? { kind: 'stream', markdown } : { kind: 'thinking', text: placeholderText(view) }),
    stepsCut: (count) => steps.add(`_${plainToMrkdwn(moreSteps(count))}_`),
    async end(view) {
      const shown = outcomeText(view);
      const messages =
        shown.kind === 'answer'
          ? capMessages(
              markdownToMessages(shown.note ? `${shown.text}\n\n_⚠️ ${shown.note}_` : shown.text, context),
              options.maxMessages,
              shown.text.length,
            )
          : [buildMessage([`:warning: ${plainToMrkdwn(shown.text)}`], context)];
      try {
        const feedback = view.phase === 'final' || view.stoppedBy !== undefined;
        await answer.finish({ kind: 'done', message: messages[0]!, feedback });
      } catch (err) {
        warn('could not post the answer')(err);
      }
      await steps.finish();
      // The rest of a long answer follows in order: in the thread, or in the channel below the answer.
      for (const message of messages.slice(1)) {
        try {
          await postMessage(client, place, message);
        } catch (err) {
          warn('could not post the rest of the answer')(err);
          break;
        }
      }
    },
  });

  return {
    ...renderer,
    delivered: async () => (await answer.posted()) !== undefined,
    answerTs: () => answer.posted(),
  };
}

/** At most `max` messages; the last one kept says how much of the answer is shown. */
function capMessages(messages: SlackMessage[], max: number, totalChars: number): SlackMessage[] {
  if (messages.length <= max) return messages;
  const kept = messages.slice(0, max);
  const shown = kept.reduce((n, m) => n + m.text.length, 0);
  const last = kept[max - 1]!;
  const note = plainToMrkdwn(answerCutNote(Math.min(shown, totalChars), totalChars));
  kept[max - 1] = {
    text: `${last.text}\n${note}`,
    blocks: [...last.blocks, { type: 'context', elements: [{ type: 'mrkdwn', text: note }] }],
  };
  return kept;
}

function withEllipsis(message: SlackMessage): SlackMessage {
  return {
    text: `${message.text} …`,
    blocks: [...message.blocks, { type: 'context', elements: [{ type: 'mrkdwn', text: '…' }] }],
  };
}
