import type { webApi } from '@slack/bolt';
import type { Logger } from '../../core/logger.js';
import { renderIncrementally } from '../shared/render-incrementally.js';
import type { RunRenderer } from '../shared/run-renderer.js';
import { outcomeText } from '../shared/run-view.js';
import { answerCutNote, moreSteps, WORDING } from '../shared/wording.js';
import { formatStep } from './format-steps.js';
import { buildMessage, markdownToMessages, type SlackMessage } from './limits.js';
import { createLiveMessage, postMessage, type SlackPlace } from './live-message.js';
import { plainToMrkdwn } from './mrkdwn.js';
import { runButtons } from './run-buttons.js';
import { createStepReplies, createStepsMessage } from './steps-layout.js';

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
  /** Names the run on its Stop (while it runs) and feedback (once answered) buttons; none without it. */
  runId?: string | undefined;
}

/** Renders the run view in Slack messages. */
export interface SlackRenderer extends RunRenderer {
  /** After finish: false when the answer message could not be posted at all. */
  delivered(): Promise<boolean>;
}

const THINKING = `_${WORDING.thinking}_`;

type AnswerView =
  | { kind: 'thinking' }
  | { kind: 'stream'; markdown: string }
  | { kind: 'done'; message: SlackMessage };

/** Posts the "thinking" placeholder at once, streams the answer into it, and lays out the steps per `layout`. */
export function createSlackRenderer(options: SlackRendererOptions): SlackRenderer {
  const { client, place, logger, context } = options;
  const warn = (what: string) => (err: unknown) => logger.warn({ err, channel: place.channel }, what);
  const stop = options.runId ? runButtons('stop', options.runId) : [];
  const feedback = options.runId ? runButtons('feedback', options.runId) : [];

  const answer = createLiveMessage<AnswerView>({
    client,
    place,
    intervalMs: options.intervalMs,
    onError: warn('could not update the answer message'),
    render: (view) => {
      switch (view.kind) {
        case 'thinking':
          return withButtons(buildMessage([THINKING], context), stop);
        case 'stream': {
          const [first, ...more] = markdownToMessages(view.markdown, context);
          // Only the first message is streamed; the rest is posted once the answer is complete.
          return withButtons(more.length > 0 ? withEllipsis(first!) : first!, stop);
        }
        case 'done':
          return view.message;
      }
    },
  });
  answer.set({ kind: 'thinking' });

  // Steps go out only once the answer message exists: under it (channel) or after it (thread).
  const steps =
    options.layout === 'channel'
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
    streaming: (markdown) => answer.set(markdown ? { kind: 'stream', markdown } : { kind: 'thinking' }),
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
      const first = shown.kind === 'answer' ? withButtons(messages[0]!, feedback) : messages[0]!;
      try {
        await answer.finish({ kind: 'done', message: first });
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

function withButtons(message: SlackMessage, buttons: SlackMessage['blocks']): SlackMessage {
  return buttons.length > 0 ? { ...message, blocks: [...message.blocks, ...buttons] } : message;
}

function withEllipsis(message: SlackMessage): SlackMessage {
  return {
    text: `${message.text} …`,
    blocks: [...message.blocks, { type: 'context', elements: [{ type: 'mrkdwn', text: '…' }] }],
  };
}
