import type { Logger } from '../../core/logger.js';
import type { StepsPlacement } from '../../core/settings/channel-settings.js';
import { createPacedEditor } from '../shared/create-paced-editor.js';
import { renderIncrementally } from '../shared/render-incrementally.js';
import type { RunRenderer } from '../shared/run-renderer.js';
import { outcomeText, placeholderText, type RunView } from '../shared/run-view.js';
import { splitCapped, splitMessage } from '../shared/split-message.js';
import { moreSteps } from '../shared/wording.js';
import { createDiscordApprovals } from './approvals.js';
import { type ButtonRow, feedbackRow } from './buttons.js';
import { MESSAGE_LIMIT, threadName } from './limits.js';
import { createStepPoster, createStepsMessage, createStepsView, formatStep, type StepSink } from './steps.js';
import { cardLayout, type Poster } from './steps-card.js';

/**
 * Where one answer is shown: a reply message (or interaction response) and the places around it. Its `post`
 * and `postCard` post messages edited later beside the answer (the single steps message where there is no
 * thread, approval prompts); `postCard` is absent where the surface sends only classic messages.
 */
export interface AnswerSurface extends Poster {
  /** Replaces the answer message's text, and its buttons when `buttons` is given. */
  edit(text: string, buttons?: ButtonRow[]): Promise<void>;
  /** Posts a further message after the answer: text past the first 2,000 characters. */
  followUp(text: string): Promise<void>;
  /** Starts a thread under the answer and returns a way to post in it; absent where threads cannot exist. */
  openThread?: (name: string) => Promise<Poster>;
}

/** Options of {@link createDiscordRenderer}. */
export interface DiscordRendererOptions {
  surface: AnswerSurface;
  /** The question, which names the reasoning thread. */
  question: string;
  /** Minimum time between edits of one message (STREAM_EDIT_INTERVAL_MS). */
  intervalMs: number;
  /** A line shown above the answer (a slash command's question, which nobody else sees). */
  header?: string | undefined;
  /** ANSWER_MAX_MESSAGES: messages one answer may take; past them it is cut with a note. */
  maxMessages: number;
  logger: Logger;
  /** The channel's `steps` setting: a thread (default), one edited message, or not shown. */
  steps?: StepsPlacement | undefined;
  /** The run the answer's buttons act on; without it the answer has no buttons. */
  runId?: string | undefined;
  /** DISCORD_COMPONENTS_V2: the single steps message and approval prompts are components v2 cards where the place can take one. */
  componentsV2?: boolean | undefined;
}

/**
 * Renders the run view on Discord: steps go to a thread started from the answer (or, where there is none,
 * one edited message), the streamed answer is edited into the reply at a steady pace, and the final text
 * replaces it, continued in further messages past Discord's limit.
 */
export function createDiscordRenderer(options: DiscordRendererOptions): RunRenderer {
  const { surface, intervalMs, logger } = options;
  const headed = (text: string) => (options.header ? `${options.header}\n${text}` : text);
  const warn = (what: string) => (err: unknown) => logger.warn({ err }, what);
  // Buttons go out with the next edit of the answer (the paced editor only knows the text).
  let buttons: ButtonRow[] | undefined;
  const editAnswer = async (text: string) => {
    const sent = buttons;
    buttons = undefined;
    try {
      await surface.edit(text, sent);
    } catch (err) {
      buttons ??= sent;
      throw err;
    }
  };
  const editor = createPacedEditor(editAnswer, intervalMs, warn('could not edit the streaming answer'));
  let steps: StepSink | undefined;
  const open = options.steps === 'inline' || options.steps === 'off' ? undefined : surface.openThread;
  // The thread is made on the first step, so answers without steps leave no empty thread behind.
  let thread: Promise<Poster | undefined> | undefined;
  const openThread = () => {
    thread ??= open
      ? open(threadName(options.question)).catch((err: unknown) => {
          logger.warn({ err }, 'could not start a thread; showing the steps in one message instead');
          return undefined;
        })
      : Promise.resolve(undefined);
    return thread;
  };
  const approvals = createDiscordApprovals({
    // After the steps before it, in the thread when there is one, else in the channel.
    place: async () => {
      await steps?.finish();
      return (await openThread()) ?? surface;
    },
    componentsV2: options.componentsV2,
    onError: warn('could not show or update a pending approval'),
  });

  const openSteps = (): StepSink => {
    const inMessage = () => {
      const onError = warn('could not update the steps message');
      const { postCard } = surface;
      return options.componentsV2 && postCard
        ? createStepsView(cardLayout(postCard), intervalMs, onError)
        : createStepsMessage(surface.post, intervalMs, onError);
    };
    if (!open) return inMessage();
    let fallback: StepSink | undefined;
    const poster = createStepPoster(async (text) => {
      const inThread = await openThread();
      if (inThread) return void (await inThread.post(text));
      fallback ??= inMessage();
      fallback.push(text);
    }, warn('could not post a step in the thread'));
    return {
      push: (text) => poster.push(text),
      async finish() {
        await poster.finish();
        await fallback?.finish();
      },
    };
  };

  const inner = renderIncrementally({
    step(step) {
      if (options.steps === 'off') return;
      steps ??= openSteps();
      steps.push(formatStep(step));
    },
    streaming(answer, view) {
      editor.set(answer.trim() ? preview(headed(answer)) : headed(placeholderText(view)));
    },
    stepsCut(count) {
      steps?.push(`-# ${moreSteps(count)}`);
    },
    async end(view) {
      const shown = outcomeText(view);
      let text = shown.kind === 'answer' ? shown.text : `⚠️ ${shown.text}`;
      if (shown.kind === 'answer' && shown.note) text += `\n-# ⚠️ ${shown.note}`;
      await Promise.all([steps?.finish(), deliver(headed(text), endButtons(view)), approvals.finish(view)]);
    },
  });
  return {
    render(view) {
      inner.render(view);
      approvals.show(view);
    },
    finish: (view) => inner.finish(view),
  };

  /** Stop gives way to 👍 / 👎 under an answer (or what a stop left of it), to nothing under a failure. */
  function endButtons(view: RunView): ButtonRow[] | undefined {
    if (!options.runId) return undefined;
    return view.phase === 'final' || view.stoppedBy !== undefined ? [feedbackRow(options.runId)] : [];
  }

  async function deliver(text: string, endRows: ButtonRow[] | undefined): Promise<void> {
    const [first, ...rest] = splitCapped(text, MESSAGE_LIMIT, options.maxMessages);
    buttons = endRows;
    try {
      await editor.finish(first);
      // The final text was already on show, so the editor sent nothing: the buttons still must change.
      if (buttons) await editAnswer(first!);
    } catch (err) {
      // discord.js already waited out 429s and retried 5xx; the answer still must not be lost.
      logger.warn({ err }, 'could not edit the final answer in; posting it instead');
      rest.unshift(first!);
    }
    for (const part of rest) {
      try {
        await surface.followUp(part);
      } catch (err) {
        logger.error({ err }, 'could not post the answer');
        return;
      }
    }
  }
}

/** The streamed text so far as it fits in one message. */
function preview(text: string): string {
  return text.length <= MESSAGE_LIMIT ? text : `${splitMessage(text, MESSAGE_LIMIT - 2)[0]} …`;
}
