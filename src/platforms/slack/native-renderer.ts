import type { types, webApi } from '@slack/bolt';
import type { Logger } from '../../core/logger.js';
import type { StepsPlacement } from '../../core/settings/channel-settings.js';
import { createPacedEditor } from '../shared/create-paced-editor.js';
import { cut } from '../shared/format-step.js';
import { renderIncrementally } from '../shared/render-incrementally.js';
import { outcomeText, type RunView } from '../shared/run-view.js';
import { splitCapped } from '../shared/split-message.js';
import { moreSteps, WORDING } from '../shared/wording.js';
import { NATIVE_MESSAGE_CHARS, safeMarkdown, UPDATE_TEXT_CHARS } from './native-markdown.js';
import { createNativeStream, type StreamSession } from './native-stream.js';
import type { SlackRenderer } from './render.js';
import { feedbackBlock, stopBlock } from './run-blocks.js';
import type { StreamTicket } from './stream-budget.js';
import { createTaskCards, PLAN_TITLE, taskBlocks } from './task-chunks.js';

/**
 * Answer characters streamed live into the first message. A long answer's first message ends where the
 * splitter cuts it, never before half its size, so text streamed up to here always belongs to it.
 */
export const LIVE_CHARS = Math.floor(NATIVE_MESSAGE_CHARS / 2) - 500;

/** Options of {@link createNativeRenderer}. */
export interface NativeRendererOptions {
  client: webApi.WebClient;
  channel: string;
  /** The question's thread (its own ts for a question at the top of a channel or DM). */
  threadTs: string;
  recipient: { userId: string; teamId: string };
  taskDisplay: 'timeline' | 'plan';
  /** The channel's `steps` setting: `off` shows no task cards; `thread` and `inline` show them in the reply. */
  steps?: StepsPlacement | undefined;
  intervalMs: number;
  /** ANSWER_MAX_MESSAGES. */
  maxMessages: number;
  /** The run (its registry id) the Stop and 👍 / 👎 buttons act on. */
  runId: string;
  logger: Logger;
  /** The stream could not start: the caller shows the run another way from here on. */
  onUnstarted: (err: unknown, unsupported: boolean) => void;
  /** The stream's share of its workspace's streaming calls. */
  ticket: StreamTicket;
  /** Someone stopped the stream in Slack's interface: the caller stops the run. */
  onUserStop?: (() => void) | undefined;
  /** Told the stream's ts once it started, and `closed()` once it is closed (for `agent_session_stopped`). */
  onStream?: ((ts: string, closedByUser: () => void) => void) | undefined;
  /** The run's agent session, whose status each stop of the stream carries. */
  session?: StreamSession | undefined;
  now?: () => number;
}

/**
 * Renders a run as one natively streamed reply: each step a task card, the answer streamed under them,
 * feedback buttons at the bottom. A stream Slack ended (`message_not_in_streaming_state`) is finished by
 * `chat.update` with the whole answer. A stream closed before the run ended (stopped at its age limit,
 * stopped by someone in Slack, or refused by Slack) leaves what it holds, and the run goes on in a new
 * message under it. An answer too long for one message continues in further replies.
 */
export function createNativeRenderer(options: NativeRendererOptions): SlackRenderer {
  const { client, channel, threadTs, logger } = options;
  const cards = createTaskCards();
  let handedOver = false;
  const stream = createNativeStream({
    client,
    channel,
    threadTs,
    recipient: options.recipient,
    taskDisplay: options.taskDisplay,
    intervalMs: options.intervalMs,
    ticket: options.ticket,
    logger,
    onUnstarted: (err, unsupported) => {
      handedOver = true;
      options.onUnstarted(err, unsupported);
    },
    onUserStop: options.onUserStop,
    onClosed: () => refresh(),
    session: options.session,
    now: options.now,
  });
  // Slack cannot take blocks back out of a stream, so the Stop button goes to the asker alone, beside it;
  // not for a stream that starts only once the run has ended (a short answer comes whole).
  let ending = false;
  const stopOffered = stream.ts().then(async (ts) => {
    if (!ts || ending) return;
    await client.chat
      .postEphemeral({
        channel,
        user: options.recipient.userId,
        thread_ts: threadTs,
        text: WORDING.stopButton,
        blocks: [stopBlock(options.runId)],
      })
      .catch((err: unknown) => logger.debug({ err, channel }, 'could not offer the Stop button'));
  });
  /** Raw answer text pushed into the stream; it always ends at whitespace. */
  let streamed = '';
  /** The raw pieces `streamed` was pushed in; the stream says how many of them landed. */
  const pieces: string[] = [];
  let diverged = false;
  let delivered = false;

  // Once the stream takes no more, the run so far is shown by paced edits: of the same message when Slack
  // ended the stream (an edit replaces what was streamed), else of a new message under it, which goes on
  // from the text that landed. Both show the task cards as static blocks.
  const feedback = [feedbackBlock(options.runId)];
  let latest = '';
  let followUp: Promise<string | undefined> | undefined;
  /** Set at the end when the stream's own message is rewritten (its text is not the answer's start). */
  let rewrite = false;
  const same = () => rewrite || stream.expired;
  /** The text the message being edited shows for `answer`. */
  const shown = (answer: string) => {
    if (same()) return answer;
    const landed = pieces.slice(0, stream.textsLanded).join('').trimEnd();
    return landed && answer.startsWith(landed) ? answer.slice(landed.length).trimStart() : answer;
  };
  let editor: ReturnType<typeof createPacedEditor> | undefined;
  const edit = () => {
    editor ??= createPacedEditor(
      async (json) => {
        const { text, final } = JSON.parse(json) as { text: string; final: boolean };
        const steps = taskBlocks(cards.all(), options.taskDisplay);
        const message = wholeMessage(text, steps, final ? feedback : []);
        if (same()) {
          const ts = await stream.ts();
          if (ts) await client.chat.update({ channel, ts, ...message });
          return;
        }
        if (!followUp) {
          followUp = client.chat
            .postMessage({
              channel,
              thread_ts: threadTs,
              ...message,
              unfurl_links: false,
              unfurl_media: false,
            })
            .then((res) => res.ts);
          await followUp;
          return;
        }
        const ts = await followUp;
        if (ts) await client.chat.update({ channel, ts, ...message });
      },
      options.intervalMs,
      (err) => logger.warn({ err, channel }, 'could not show a run whose stream was closed'),
    );
    return editor;
  };
  const refresh = () => {
    if (!stream.expired && !stream.closedBy) return;
    edit().set(JSON.stringify({ text: shown(latest) || WORDING.thinking, final: false }));
  };
  void stream.ts().then((ts) => {
    if (ts) options.onStream?.(ts, () => stream.closedByUser());
  });

  // A plan is titled while the run goes on, and retitled once it ends.
  const plan = options.taskDisplay === 'plan';
  const showSteps = options.steps !== 'off';
  const renderer = renderIncrementally({
    step(step) {
      if (!showSteps) return;
      if (plan && cards.all().length === 0) stream.push({ type: 'plan_update', title: WORDING.thinking });
      stream.push(cards.step(step));
      refresh();
    },
    stepsCut: (count) => {
      if (showSteps) stream.push(cards.note(moreSteps(count)));
    },
    streaming(answer) {
      if (handedOver) return;
      latest = answer;
      if (stream.expired || stream.closedBy) return refresh();
      if (!answer.startsWith(streamed)) {
        diverged = true; // retracted text cannot be taken back out of a stream
        return;
      }
      if (diverged) return;
      const end = wordEnd(answer, Math.min(answer.length, LIVE_CHARS));
      if (end <= streamed.length) return;
      pieces.push(answer.slice(streamed.length, end));
      stream.push({ type: 'markdown_text', text: safeMarkdown(answer.slice(streamed.length, end)) });
      streamed = answer.slice(0, end);
    },
    async end(view) {
      ending = true;
      if (handedOver) return;
      const parts = finalParts(view, diverged ? '' : streamed, options.maxMessages);
      const first = parts[0]!;
      // A stopped answer keeps what it wrote, and can be rated like a finished one.
      const answered = view.phase === 'final' || view.stoppedBy !== undefined;
      const closing: types.AnyChunk[] = cards.unfinished();
      if (plan && cards.all().length > 0) closing.push({ type: 'plan_update', title: PLAN_TITLE });
      let ended: Awaited<ReturnType<typeof stream.stop>>;
      if (!diverged && first.startsWith(streamed)) {
        const rest = first.slice(streamed.length);
        if (rest) pieces.push(rest);
        ended = await stream.stop({
          chunks: [
            ...closing,
            ...(rest ? [{ type: 'markdown_text' as const, text: safeMarkdown(rest) }] : []),
          ],
          blocks: answered ? feedback : undefined,
        });
      } else {
        ended = await stream.stop({ chunks: closing });
        if (ended === 'stopped') ended = 'expired'; // the text in the stream is not the answer: replace it
      }
      if (ended === 'unstarted') return; // handed over, or nothing could be posted at all
      if (ended === 'expired' || ended === 'ended') {
        rewrite = ended === 'expired';
        try {
          await edit().finish(JSON.stringify({ text: shown(first), final: answered }));
        } catch (err) {
          logger.warn({ err, channel }, 'could not finish a run whose stream was closed');
        }
      }
      delivered = true;
      await stopOffered;
      for (const part of parts.slice(1)) {
        try {
          await client.chat.postMessage({
            channel,
            thread_ts: threadTs,
            ...wholeMessage(part, [], []),
            unfurl_links: false,
            unfurl_media: false,
          });
        } catch (err) {
          logger.warn({ err, channel }, 'could not post the rest of the answer');
          break;
        }
      }
    },
  });

  // A call waiting for a person marks its card pending (and back in progress once decided).
  const pending = new Map<string, { step: number; tool: string }>();
  const markPending = (view: RunView) => {
    if (!showSteps) return;
    const now = view.approvals ?? [];
    const changed: types.AnyChunk[] = [];
    for (const a of now) {
      if (pending.has(a.id)) continue;
      pending.set(a.id, a);
      const card = cards.awaiting(a.step, a.tool, true);
      if (card) changed.push(card);
    }
    for (const [id, a] of pending) {
      if (now.some((n) => n.id === id)) continue;
      pending.delete(id);
      const card = cards.awaiting(a.step, a.tool, false);
      if (card) changed.push(card);
    }
    if (changed.length === 0) return;
    for (const card of changed) stream.push(card);
    refresh();
  };

  return {
    ...renderer,
    render(view) {
      renderer.render(view);
      markPending(view);
    },
    delivered: async () => delivered,
    answerTs: () => stream.ts(),
  };
}

/** The messages an ended run shows: the answer split to fit (or the problem), continuing what was streamed. */
function finalParts(view: RunView, streamed: string, maxMessages: number): string[] {
  const shown = outcomeText(view);
  if (shown.kind === 'problem') return [`${streamed ? `${streamed}\n\n` : ''}⚠️ ${shown.text}`];
  const text = shown.note ? `${shown.text}\n\n_⚠️ ${shown.note}_` : shown.text;
  return splitCapped(text, NATIVE_MESSAGE_CHARS, maxMessages);
}

/** A whole message as `chat.update` or `chat.postMessage` take it: blocks, and a short fallback text. */
function wholeMessage(
  markdown: string,
  steps: types.KnownBlock[],
  buttons: types.KnownBlock[],
): { text: string; blocks: types.KnownBlock[] } {
  const safe = safeMarkdown(markdown);
  // A follow-up whose stream already holds the whole answer shows only the steps and the buttons.
  if (!safe.trim() && steps.length + buttons.length > 0)
    return { text: WORDING.answerFinished, blocks: [...steps, ...buttons] };
  return {
    text: cut(safe, UPDATE_TEXT_CHARS).text,
    blocks: [...steps, { type: 'markdown', text: safe }, ...buttons],
  };
}

/** Where to stop streaming `text` for now: after the last whitespace before `limit`, so no word is cut. */
function wordEnd(text: string, limit: number): number {
  if (limit >= text.length && /\s$/.test(text)) return text.length;
  const head = text.slice(0, limit);
  const match = /\s(?=\S*$)/.exec(head);
  return match ? match.index + 1 : 0;
}
