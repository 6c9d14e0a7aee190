import { createPacedEditor } from '../shared/create-paced-editor.js';
import { OBSERVATION_CHARS, THOUGHT_CHARS } from '../shared/display-limits.js';
import { cut, formatAction } from '../shared/format-step.js';
import type { StepView } from '../shared/run-view.js';
import { splitMessage } from '../shared/split-message.js';
import { cutNote } from '../shared/wording.js';
import type { ButtonRow } from './buttons.js';
import { MESSAGE_LIMIT } from './limits.js';

/** Where the reasoning steps of one answer go: a thread, or one edited message. */
export interface StepSink {
  /** Queues one formatted step; never throws, never blocks. */
  push(text: string): void;
  /** Resolves once every pushed step is delivered (or has failed and been reported). */
  finish(): Promise<void>;
}

/** Posts one message (with buttons, when given) and returns a way to edit it (buttons too: `[]` removes them). */
export type PostEditable = (
  text: string,
  buttons?: ButtonRow[],
) => Promise<(text: string, buttons?: ButtonRow[]) => Promise<void>>;

/** A step as Discord markdown. */
export function formatStep(step: StepView): string {
  switch (step.kind) {
    case 'thought':
      return `**Thought:** ${cut(step.text.trim(), THOUGHT_CHARS).text}`;
    case 'action':
      return `**Action:** ${inlineCode(formatAction(step.tool, step.input))}`;
    case 'observation': {
      const shown = cut(step.text.trim(), OBSERVATION_CHARS);
      const note = shown.cut ? `\n-# ${cutNote(step.text.length)}` : '';
      return `**Observation${step.ok ? '' : ' (failed)'}:**\n${codeBlock(shown.text)}${note}`;
    }
    case 'note':
      return `-# ${step.text}`;
  }
}

/**
 * Posts steps as messages of their own, strictly in order and one request at a time; steps that arrive
 * while a post is in flight go out together in the next one, so a burst costs few requests.
 */
export function createStepPoster(
  post: (text: string) => Promise<void>,
  onError: (err: unknown) => void,
): StepSink {
  const queue: string[] = [];
  let draining: Promise<void> | undefined;

  const drain = async () => {
    while (queue.length > 0) {
      let batch = queue.shift()!;
      while (queue.length > 0 && batch.length + 1 + queue[0]!.length <= MESSAGE_LIMIT)
        batch += `\n${queue.shift()}`;
      try {
        await post(batch);
      } catch (err) {
        onError(err);
      }
    }
    draining = undefined;
  };

  return {
    push(text) {
      queue.push(...splitMessage(text, MESSAGE_LIMIT));
      draining ??= drain();
    },
    async finish() {
      while (draining) await draining;
    },
  };
}

/** How the single steps message shows the steps: its body from all steps so far, and how it is posted, then edited. */
export interface StepsLayout<T> {
  fit(steps: readonly string[]): T;
  post(body: T): Promise<(next: T) => Promise<void>>;
}

/**
 * Shows every step in one message of text, edited as steps arrive (paced like the answer), for places with
 * no thread. When the steps outgrow one message, the latest ones are kept.
 */
export function createStepsMessage(
  post: PostEditable,
  intervalMs: number,
  onError: (err: unknown) => void,
): StepSink {
  return createStepsView({ fit: fitSteps, post: (text) => post(text) }, intervalMs, onError);
}

/** Shows every step in one message laid out by `layout`, edited as steps arrive (paced like the answer). */
export function createStepsView<T>(
  layout: StepsLayout<T>,
  intervalMs: number,
  onError: (err: unknown) => void,
): StepSink {
  const steps: string[] = [];
  let edit: ((body: T) => Promise<void>) | undefined;
  // The paced editor compares and keeps text: each body goes through it as JSON.
  const shown = () => JSON.stringify(layout.fit(steps));
  const editor = createPacedEditor(
    async (json) => {
      const body = JSON.parse(json) as T;
      if (edit) return edit(body);
      edit = await layout.post(body);
    },
    intervalMs,
    onError,
  );
  return {
    push(text) {
      steps.push(text);
      editor.set(shown());
    },
    async finish() {
      if (steps.length === 0) return;
      try {
        // Always name the final text: finish() alone could resend an older text over an edit in flight.
        await editor.finish(shown());
      } catch (err) {
        onError(err);
      }
    },
  };
}

const EARLIER = '-# (earlier steps not shown)\n';

/** The latest steps that fit in one message, oldest first. */
export function fitSteps(steps: readonly string[]): string {
  let text = '';
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i]!;
    const joined = text ? `${step}\n${text}` : step;
    if (joined.length + EARLIER.length <= MESSAGE_LIMIT) {
      text = joined;
      continue;
    }
    if (text) return `${EARLIER}${text}`;
    // The latest step alone is too long: show its beginning.
    const head = splitMessage(step, MESSAGE_LIMIT - EARLIER.length)[0]!;
    return i > 0 ? `${EARLIER}${head}` : head;
  }
  return text;
}

/** Inline code that survives backticks in the text. */
function inlineCode(text: string): string {
  return text.includes('`') ? `\`\` ${text.replaceAll('``', '`\u200b`')} \`\`` : `\`${text}\``;
}

/** A code block that cannot be closed early by fences inside the text. */
export function codeBlock(text: string): string {
  return `\`\`\`\n${text.replaceAll('```', '`\u200b``') || ' '}\n\`\`\``;
}
