import type { webApi } from '@slack/bolt';
import { buildMessage, SECTION_CHARS, SECTIONS_PER_MESSAGE } from './limits.js';
import { createLiveMessage, postMessage, type SlackPlace } from './live-message.js';
import { markAsSteps } from './step-mark.js';

/** Where a run's reasoning steps (already mrkdwn, one section each at most) are shown. */
export interface Steps {
  add(mrkdwn: string): void;
  /** Resolves once every step is shown (or failed to be); never rejects. */
  finish(): Promise<void>;
}

/**
 * `channel` layout: each step is its own reply in the thread of the answer message, posted one after
 * another so the thread reads in order.
 */
export function createStepReplies(options: {
  client: webApi.WebClient;
  channel: string;
  /** The answer message's ts once posted, or undefined if it never was. */
  parent: () => Promise<string | undefined>;
  onError: (err: unknown) => void;
}): Steps {
  const { client, channel, onError } = options;
  let chain = Promise.resolve();
  return {
    add(mrkdwn) {
      chain = chain.then(async () => {
        const threadTs = await options.parent();
        if (!threadTs) return; // no answer message to hang the steps under
        await postMessage(client, { channel, threadTs }, markAsSteps(buildMessage([mrkdwn]))).catch(onError);
      });
    },
    finish: () => chain,
  };
}

/**
 * `thread` layout: the steps share one reply in the thread, edited (paced) as they arrive; when it is
 * full, it is closed and another begun.
 */
export function createStepsMessage(options: {
  client: webApi.WebClient;
  place: SlackPlace;
  intervalMs: number;
  /** The first steps message is posted only after this settles (the answer message is posted). */
  after: Promise<unknown>;
  onError: (err: unknown) => void;
}): Steps {
  const { onError } = options;
  const newMessage = () =>
    createLiveMessage<string[]>({
      client: options.client,
      place: options.place,
      intervalMs: options.intervalMs,
      onError,
      render: (lines) => markAsSteps(buildMessage(packLines(lines))),
    });
  let current = newMessage();
  let lines: string[] = [];
  // Each steps message is posted only after the message before it, so the thread reads in order.
  let previous = options.after;
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
    if (last !== undefined && last.length + 1 + line.length <= SECTION_CHARS) {
      sections[sections.length - 1] = `${last}\n${line}`;
    } else {
      sections.push(line);
    }
  }
  return sections;
}
