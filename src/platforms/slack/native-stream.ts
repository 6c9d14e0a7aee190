import type { types, webApi } from '@slack/bolt';
import type { Logger } from '../../core/logger.js';
import { isStreamingUnsupported, slackErrorCode } from './streaming-support.js';

/** Slack ends a stream after about five minutes; past this age one is finished by `chat.update` instead. */
export const STREAM_MAX_AGE_MS = 4.5 * 60 * 1000;
/** Most chunks sent in one call. */
export const CHUNKS_PER_CALL = 40;

/** How a stream ended: `stopped` with everything in it, or not, and why. */
export type StreamEnd =
  /** Every chunk landed and the stream is stopped. */
  | 'stopped'
  /** Slack stopped taking chunks (`message_not_in_streaming_state`, or too old): finish with `chat.update`. */
  | 'expired'
  /** The stream never started: the workspace refuses the methods, or the call failed. */
  | 'unstarted';

/** One natively streamed message: chunks are queued, batched and sent at a pace; the first call starts it. */
export interface NativeStream {
  push(chunk: types.AnyChunk): void;
  /** Sends what is queued plus `chunks`, then stops the stream with `blocks` at the bottom. */
  stop(final: { chunks: types.AnyChunk[]; blocks?: types.KnownBlock[] | undefined }): Promise<StreamEnd>;
  /** The message's ts once started, or undefined if it never was (resolves at the latest on stop). */
  ts(): Promise<string | undefined>;
  /** True while every markdown chunk pushed so far has landed (so the message's text is known). */
  readonly textIntact: boolean;
  /** True once Slack stopped taking chunks; later pushes are dropped. */
  readonly expired: boolean;
}

/** Options of {@link createNativeStream}. */
export interface NativeStreamOptions {
  client: webApi.WebClient;
  channel: string;
  threadTs: string;
  recipient: { userId: string; teamId: string };
  taskDisplay: 'timeline' | 'plan';
  /** Least time between two calls (appendStream is Tier 4: about 100 a minute per workspace). */
  intervalMs: number;
  logger: Logger;
  /** The stream could not start; `unsupported` when the workspace refuses the methods themselves. */
  onUnstarted: (err: unknown, unsupported: boolean) => void;
  now?: () => number;
}

/** Starts nothing until the first chunk; see {@link NativeStream}. */
export function createNativeStream(options: NativeStreamOptions): NativeStream {
  const { client, channel, logger } = options;
  const now = options.now ?? Date.now;
  let state: 'idle' | 'live' | 'expired' | 'unstarted' | 'stopped' = 'idle';
  let ts: string | undefined;
  let startedAt = 0;
  let textIntact = true;
  let queue: types.AnyChunk[] = [];
  let inFlight: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let lastAt = Number.NEGATIVE_INFINITY;
  let idleWaiters: (() => void)[] = [];
  let resolveTs: (ts: string | undefined) => void = () => {};
  const tsPromise = new Promise<string | undefined>((resolve) => {
    resolveTs = resolve;
  });

  const accepting = () => state === 'idle' || state === 'live';
  const lose = (batch: types.AnyChunk[]) => {
    if (batch.some((c) => c.type === 'markdown_text')) textIntact = false;
  };

  async function send(batch: types.AnyChunk[]): Promise<void> {
    if (state === 'idle') {
      try {
        const res = await client.chat.startStream({
          channel,
          thread_ts: options.threadTs,
          recipient_user_id: options.recipient.userId,
          recipient_team_id: options.recipient.teamId,
          task_display_mode: options.taskDisplay,
          chunks: batch,
        });
        ts = res.ts;
        if (!ts) throw new Error('chat.startStream returned no ts');
        state = 'live';
        startedAt = now();
        resolveTs(ts);
      } catch (err) {
        state = 'unstarted';
        lose(batch);
        resolveTs(undefined);
        const unsupported = isStreamingUnsupported(err);
        if (!unsupported) logger.warn({ err, channel }, 'could not start a native stream');
        options.onUnstarted(err, unsupported);
      }
      return;
    }
    if (now() - startedAt > STREAM_MAX_AGE_MS) {
      state = 'expired';
      lose(batch);
      return;
    }
    try {
      await client.chat.appendStream({ channel, ts: ts!, chunks: batch });
    } catch (err) {
      lose(batch);
      if (slackErrorCode(err) === 'message_not_in_streaming_state') state = 'expired';
      else logger.warn({ err, channel }, 'could not append to a native stream');
    }
  }

  const pump = (): void => {
    if (!accepting()) {
      lose(queue);
      queue = [];
    }
    if (inFlight || timer) return;
    if (queue.length === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const wake of waiters) wake();
      return;
    }
    const wait = lastAt + options.intervalMs - now();
    if (wait > 0) {
      timer = setTimeout(() => {
        timer = undefined;
        pump();
      }, wait);
      return;
    }
    const batch = takeBatch(queue);
    queue = queue.slice(batch.taken);
    lastAt = now();
    inFlight = send(batch.chunks).finally(() => {
      lastAt = now();
      inFlight = undefined;
      pump();
    });
  };

  const drained = () =>
    new Promise<void>((resolve) => {
      idleWaiters.push(resolve);
      pump();
    });

  return {
    push(chunk) {
      if (!accepting()) return;
      queue.push(chunk);
      pump();
    },
    async stop(final) {
      if (accepting()) queue.push(...final.chunks);
      else lose(final.chunks);
      await drained();
      if (state === 'idle' || state === 'unstarted') {
        resolveTs(undefined);
        return 'unstarted';
      }
      if (state !== 'live' || now() - startedAt > STREAM_MAX_AGE_MS) return 'expired';
      try {
        await client.chat.stopStream({ channel, ts: ts!, ...(final.blocks ? { blocks: final.blocks } : {}) });
        state = 'stopped';
      } catch (err) {
        if (slackErrorCode(err) === 'message_not_in_streaming_state') {
          state = 'expired';
          return 'expired';
        }
        // The content is in; only the closing (and its buttons) failed.
        logger.warn({ err, channel }, 'could not stop a native stream');
        state = 'stopped';
      }
      return textIntact ? 'stopped' : 'expired';
    },
    ts: () => tsPromise,
    get textIntact() {
      return textIntact;
    },
    get expired() {
      return state === 'expired';
    },
  };
}

/**
 * The next call's chunks: at most CHUNKS_PER_CALL, neighbouring text joined into one chunk, and a task
 * updated twice sent once in its latest state.
 */
function takeBatch(queue: readonly types.AnyChunk[]): { chunks: types.AnyChunk[]; taken: number } {
  const chunks: types.AnyChunk[] = [];
  let taken = 0;
  for (const chunk of queue) {
    const last = chunks.at(-1);
    if (chunk.type === 'markdown_text' && last?.type === 'markdown_text') {
      chunks[chunks.length - 1] = { type: 'markdown_text', text: last.text + chunk.text };
    } else if (chunk.type === 'task_update') {
      const same = chunks.findIndex((c) => c.type === 'task_update' && c.id === chunk.id);
      if (same >= 0) chunks[same] = chunk;
      else if (chunks.length < CHUNKS_PER_CALL) chunks.push(chunk);
      else break;
    } else if (chunks.length < CHUNKS_PER_CALL) {
      chunks.push(chunk);
    } else {
      break;
    }
    taken++;
  }
  return { chunks, taken };
}
