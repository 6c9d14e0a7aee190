import type { webApi } from '@slack/bolt';
import type { AgentEvent } from '../../core/agent/events.js';
import type { AskOutcome } from '../../core/assistant.js';
import type { Logger } from '../../core/logger.js';
import { formatStep, isStepEvent } from './format-steps.js';
import {
  buildMessage,
  markdownToMessages,
  SECTION_CHARS,
  SECTIONS_PER_MESSAGE,
  type SlackMessage,
} from './limits.js';
import { createLiveMessage, type LiveMessage, type SlackPlace } from './live-message.js';
import { plainToMrkdwn } from './mrkdwn.js';

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
}

/** Turns one run's events into Slack messages. */
export interface SlackRenderer {
  onEvent(event: AgentEvent): void;
  /**
   * Settles every message: the answer (or a short failure note where it would be) and all steps. Never
   * throws; resolves to false when the answer message could not be posted at all.
   */
  finish(outcome?: AskOutcome): Promise<boolean>;
}

const THINKING = '_Thinking…_';

type AnswerView =
  | { kind: 'thinking' }
  | { kind: 'stream'; markdown: string }
  | { kind: 'done'; message: SlackMessage };

/** Posts the "thinking" placeholder at once, streams the answer into it, and lays out the steps per `layout`. */
export function createSlackRenderer(options: SlackRendererOptions): SlackRenderer {
  const { client, place, logger, context } = options;
  const warn = (what: string) => (err: unknown) =>
    logger.warn({ err: describe(err), channel: place.channel }, what);

  const answer = createLiveMessage<AnswerView>({
    client,
    place,
    intervalMs: options.intervalMs,
    onError: warn('could not update the answer message'),
    render: (view) => {
      switch (view.kind) {
        case 'thinking':
          return buildMessage([THINKING], context);
        case 'stream': {
          const [first, ...more] = markdownToMessages(view.markdown, context);
          // Only the first message is streamed; the rest is posted once the answer is complete.
          return more.length > 0 ? withEllipsis(first!) : first!;
        }
        case 'done':
          return view.message;
      }
    },
  });
  answer.set({ kind: 'thinking' });

  const steps =
    options.layout === 'channel'
      ? createThreadReplies(client, place.channel, answer, warn('could not post a step'))
      : createStepsMessages(options, answer, warn('could not update the steps message'));

  let streamed = '';
  let final: string | undefined;
  let failure: string | undefined;

  return {
    onEvent(event) {
      if (isStepEvent(event)) {
        steps.add(formatStep(event));
        return;
      }
      switch (event.type) {
        case 'answer_delta':
          streamed += event.text;
          answer.set({ kind: 'stream', markdown: streamed });
          break;
        case 'answer_reset':
          streamed = '';
          answer.set({ kind: 'thinking' });
          break;
        case 'answer':
          final = event.text;
          break;
        case 'error':
          failure = event.message;
          break;
      }
    },
    async finish(outcome) {
      const messages =
        final !== undefined
          ? markdownToMessages(final.trim() ? final : '_(The answer was empty.)_', context)
          : [buildMessage([`:warning: ${plainToMrkdwn(failure ?? failureOf(outcome))}`], context)];
      try {
        await answer.finish({ kind: 'done', message: messages[0]! });
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
      return (await answer.posted()) !== undefined;
    },
  };
}

interface Steps {
  add(mrkdwn: string): void;
  finish(): Promise<void>;
}

/** `channel` layout: each step is its own reply in the answer's thread, posted one after another. */
function createThreadReplies(
  client: webApi.WebClient,
  channel: string,
  answer: LiveMessage<AnswerView>,
  onError: (err: unknown) => void,
): Steps {
  let chain = Promise.resolve();
  return {
    add(mrkdwn) {
      chain = chain.then(async () => {
        const threadTs = await answer.posted();
        if (!threadTs) return; // no answer message to hang the steps under
        await postMessage(client, { channel, threadTs }, buildMessage([mrkdwn])).catch(onError);
      });
    },
    finish: () => chain,
  };
}

/** `thread` layout: the steps share one reply, edited as they arrive; a full one is closed and another begun. */
function createStepsMessages(
  options: SlackRendererOptions,
  answer: LiveMessage<AnswerView>,
  onError: (err: unknown) => void,
): Steps {
  const newMessage = () =>
    createLiveMessage<string[]>({
      client: options.client,
      place: options.place,
      intervalMs: options.intervalMs,
      onError,
      render: (lines) => buildMessage(packLines(lines)),
    });
  let current = newMessage();
  let lines: string[] = [];
  // Each steps message is posted only after the message before it, so the thread reads in order.
  let previous: Promise<unknown> = answer.posted();
  const settled: Promise<void>[] = [];

  return {
    add(mrkdwn) {
      if (lines.length > 0 && packLines([...lines, mrkdwn]).length > SECTIONS_PER_MESSAGE) {
        const [full, done] = [current, lines];
        settled.push(previous.then(() => full.finish(done)).catch(onError));
        previous = full.posted();
        current = newMessage();
        lines = [];
      }
      lines.push(mrkdwn);
      const [message, view] = [current, [...lines]];
      void previous.then(() => message.set(view));
    },
    async finish() {
      if (lines.length > 0) {
        const [message, view] = [current, lines];
        settled.push(previous.then(() => message.finish(view)).catch(onError));
      }
      await Promise.all(settled);
    },
  };
}

/** Step lines packed into as few sections as fit, each at most SECTION_CHARS. */
function packLines(lines: readonly string[]): string[] {
  const sections: string[] = [];
  for (const line of lines) {
    const last = sections.at(-1);
    if (last !== undefined && last.length + 1 + line.length <= SECTION_CHARS)
      sections[sections.length - 1] = `${last}\n${line}`;
    else sections.push(line);
  }
  return sections;
}

function withEllipsis(message: SlackMessage): SlackMessage {
  return {
    text: `${message.text} …`,
    blocks: [...message.blocks, { type: 'context', elements: [{ type: 'mrkdwn', text: '…' }] }],
  };
}

async function postMessage(
  client: webApi.WebClient,
  place: SlackPlace,
  message: SlackMessage,
): Promise<void> {
  await client.chat.postMessage({
    channel: place.channel,
    ...(place.threadTs ? { thread_ts: place.threadTs } : {}),
    ...message,
    parse: 'none',
    unfurl_links: false,
    unfurl_media: false,
  });
}

function failureOf(outcome: AskOutcome | undefined): string {
  if (outcome?.status === 'busy' || outcome?.status === 'failed') return outcome.message;
  if (outcome?.status === 'cancelled') return 'Cancelled.';
  return 'Something went wrong while answering.';
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
