import type { webApi } from '@slack/bolt';
import { createPacedEditor } from '../shared/create-paced-editor.js';
import type { SlackMessage } from './limits.js';

/** Where a message goes: a channel, and the thread within it when there is one. */
export interface SlackPlace {
  channel: string;
  threadTs?: string | undefined;
}

/** A Slack message that is posted once and then edited in place as its content changes. */
export interface LiveMessage<V> {
  /** Shows `view` now or at the next allowed moment; the first call posts the message. */
  set(view: V): void;
  /** Shows `view` (or the last one set) and resolves once Slack has it; rejects if that fails. */
  finish(view?: V): Promise<void>;
  /** The message's ts once posted, or undefined if it never could be (resolves at the latest on finish). */
  posted(): Promise<string | undefined>;
}

/** Options of {@link createLiveMessage}. */
export interface LiveMessageOptions<V> {
  client: webApi.WebClient;
  place: SlackPlace;
  /** How a view looks as a Slack message; runs only for views actually sent, so streaming stays cheap. */
  render: (view: V) => SlackMessage;
  /** Minimum time between two sends (Slack's chat.update is rate-limited per workspace). */
  intervalMs: number;
  onError: (err: unknown) => void;
}

/** Posts a message on the first view, then paces `chat.update` calls so one edit is in flight at a time. */
export function createLiveMessage<V>(options: LiveMessageOptions<V>): LiveMessage<V> {
  const { client, place, render } = options;
  let ts: string | undefined;
  let shown: string | undefined; // the last message Slack accepted, as JSON
  let resolvePosted: (ts: string | undefined) => void = () => {};
  const postedPromise = new Promise<string | undefined>((resolve) => {
    resolvePosted = resolve;
  });

  // Views travel through the editor as JSON so that it can skip sending a view identical to the last.
  const editor = createPacedEditor(
    async (json) => {
      const message = render(JSON.parse(json) as V);
      // Different views can look the same (the streamed answer and the final one); send each look once.
      const look = JSON.stringify(message);
      if (ts !== undefined && look === shown) return;
      if (ts === undefined) {
        ts = await postMessage(client, place, message);
        resolvePosted(ts);
      } else {
        // `parse: 'none'`: Slack must not turn any text into mentions or channel links on its own.
        await client.chat.update({ channel: place.channel, ts, ...message, parse: 'none' });
      }
      shown = look;
    },
    options.intervalMs,
    options.onError,
    { firstSendPosts: true },
  );

  return {
    set: (view) => editor.set(JSON.stringify(view)),
    async finish(view) {
      try {
        await editor.finish(view === undefined ? undefined : JSON.stringify(view));
      } finally {
        resolvePosted(ts);
      }
    },
    posted: () => postedPromise,
  };
}

/** Posts `message` at `place`, returning its ts. Slack must neither parse mentions out of it nor unfurl links. */
export async function postMessage(
  client: webApi.WebClient,
  place: SlackPlace,
  message: SlackMessage,
): Promise<string | undefined> {
  const res = await client.chat.postMessage({
    channel: place.channel,
    ...(place.threadTs ? { thread_ts: place.threadTs } : {}),
    ...message,
    parse: 'none',
    unfurl_links: false,
    unfurl_media: false,
  });
  return res.ts;
}
