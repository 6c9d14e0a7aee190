import type { types, webApi } from '@slack/bolt';
import type { Logger } from '../../core/logger.js';
import type { StreamTicket } from './stream-budget.js';
import { isStreamingUnsupported, slackErrorCode } from './streaming-support.js';

/** Slack ends a stream after about five minutes; at this age one is stopped and the run goes on in a follow-up. */
export const STREAM_MAX_AGE_MS = 4.5 * 60 * 1000;
/** Most chunks sent in one call. */
export const CHUNKS_PER_CALL = 40;
/** Tries of a `chat.stopStream` Slack answers `ratelimited`: a stream must not be left streaming. */
const STOP_TRIES = 3;

/** How a stream ended. */
export type StreamEnd =
  /** Every chunk landed and the stream is stopped, with its blocks. */
  | 'stopped'
  /** Slack ended it (`message_not_in_streaming_state`): the message is finished by `chat.update`. */
  | 'expired'
  /**
   * It is closed with part of the run in it (stopped at its age limit, stopped by a user in Slack, or
   * refused: `message_not_owned_by_app`, `invalid_chunks`): the run goes on in a new message.
   */
  | 'ended'
  /** The stream never started: the workspace refuses the methods, or the call failed. */
  | 'unstarted';

/** Why a stream was closed before the run ended. */
export type ClosedBy = 'age' | 'user' | 'refused';

/** One natively streamed message: chunks are queued, batched and sent at a pace; the first call starts it. */
export interface NativeStream {
  push(chunk: types.AnyChunk): void;
  /** Sends what is queued plus `chunks` (the last of them with the stop), and stops the stream with `blocks`. */
  stop(final: { chunks: types.AnyChunk[]; blocks?: types.KnownBlock[] | undefined }): Promise<StreamEnd>;
  /** The message's ts once started, or undefined if it never was (resolves at the latest on stop). */
  ts(): Promise<string | undefined>;
  /** True while every markdown chunk pushed so far has landed (so the message's text is known). */
  readonly textIntact: boolean;
  /** How many of the markdown chunks pushed (in order) landed in the message. */
  readonly textsLanded: number;
  /** True once Slack stopped taking chunks (`expired`); later pushes are dropped. */
  readonly expired: boolean;
  /** Set once the stream was closed before the run ended; later pushes are dropped. */
  readonly closedBy: ClosedBy | undefined;
  /** Slack says someone stopped the stream (`agent_session_stopped`): no more calls are made for it. */
  closedByUser(): void;
}

/** Options of {@link createNativeStream}. */
export interface NativeStreamOptions {
  client: webApi.WebClient;
  channel: string;
  threadTs: string;
  recipient: { userId: string; teamId: string };
  taskDisplay: 'timeline' | 'plan';
  /** Least time between two calls. */
  intervalMs: number;
  /** This stream's share of its workspace's streaming calls. */
  ticket: StreamTicket;
  logger: Logger;
  /** The stream could not start; `err` says why. */
  onUnstarted: (err: unknown, unsupported: boolean) => void;
  /** Someone stopped the stream in Slack's interface (`stopped_by_user`): the run should stop too. */
  onUserStop?: (() => void) | undefined;
  /** A stream closed for a reason of its own (`closedBy`): what is queued is not sent. */
  onClosed?: ((by: ClosedBy) => void) | undefined;
  /** The run's agent session: every `chat.stopStream` carries its status (`session_status`) where it has one. */
  session?: StreamSession | undefined;
  now?: () => number;
}

/** What a stream's stop tells the run's agent session (see session-status.ts `RunSession`). */
export interface StreamSession {
  /** The status to stop with, once the session's earlier calls landed; undefined without agent sessions. */
  forStop(): Promise<string | undefined>;
  /** The stop set `status`. */
  stopped(status: string): void;
}

type State = 'idle' | 'live' | 'expired' | 'closed' | 'unstarted' | 'stopped';

/** Starts nothing until the first chunk; see {@link NativeStream}. */
export function createNativeStream(options: NativeStreamOptions): NativeStream {
  const { client, channel, logger, ticket } = options;
  const now = options.now ?? Date.now;
  let state: State = 'idle';
  let closedBy: ClosedBy | undefined;
  let ts: string | undefined;
  let startedAt = 0;
  let textIntact = true;
  let textsLanded = 0;
  let queue: types.AnyChunk[] = [];
  let inFlight: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let lastAt = Number.NEGATIVE_INFINITY;
  let closing = false;
  let idleWaiters: (() => void)[] = [];
  let resolveTs: (ts: string | undefined) => void = () => {};
  const tsPromise = new Promise<string | undefined>((resolve) => {
    resolveTs = resolve;
  });

  const accepting = () => state === 'idle' || state === 'live';
  const lose = (chunks: readonly types.AnyChunk[]) => {
    if (chunks.some((c) => c.type === 'markdown_text')) textIntact = false;
  };
  const tooOld = () => state === 'live' && now() - startedAt > STREAM_MAX_AGE_MS;

  /** Slack said the stream takes no more: what that means for it, or undefined for a passing failure. */
  const failure = (err: unknown): 'expired' | ClosedBy | 'ratelimited' | undefined => {
    switch (slackErrorCode(err)) {
      case 'message_not_in_streaming_state':
        return 'expired';
      case 'stopped_by_user':
        return 'user';
      case 'message_not_owned_by_app':
      case 'invalid_chunks':
        return 'refused';
      case 'ratelimited':
        return 'ratelimited';
      default:
        return undefined;
    }
  };

  const close = (by: ClosedBy) => {
    state = 'closed';
    closedBy = by;
    options.onClosed?.(by);
    if (by === 'user') options.onUserStop?.();
  };

  /** Calls `chat.stopStream` (with `chunks` and `blocks`); retried while Slack answers `ratelimited`. */
  async function callStop(batch: Batch, blocks?: types.KnownBlock[]): Promise<unknown> {
    const { chunks } = batch;
    ticket.stopped();
    // Stopped without it, a session goes `active` (its default) even while the run goes on.
    const sessionStatus = await options.session?.forStop();
    for (let attempt = 1; ; attempt++) {
      try {
        await client.chat.stopStream({
          channel,
          ts: ts!,
          ...(chunks.length > 0 ? { chunks } : {}),
          ...(blocks ? { blocks } : {}),
          ...(sessionStatus ? { session_status: sessionStatus } : {}),
        });
        textsLanded += batch.texts;
        if (sessionStatus) options.session?.stopped(sessionStatus);
        return undefined;
      } catch (err) {
        if (failure(err) !== 'ratelimited' || attempt >= STOP_TRIES) return err;
        await new Promise((resolve) => setTimeout(resolve, retryAfterMs(err)));
      }
    }
  }

  /** Closes a stream that got too old: stopped with `batch` in it, so it never stays streaming. */
  async function stopForAge(batch: Batch): Promise<void> {
    const err = await callStop(batch);
    if (err) {
      lose(batch.chunks);
      if (failure(err) === 'user') return close('user');
      logger.warn({ err, channel }, 'could not stop a native stream at its age limit');
    }
    close('age');
  }

  async function send(batch: Batch): Promise<void> {
    if (state === 'idle') {
      try {
        ticket.started();
        const res = await client.chat.startStream({
          channel,
          thread_ts: options.threadTs,
          recipient_user_id: options.recipient.userId,
          recipient_team_id: options.recipient.teamId,
          task_display_mode: options.taskDisplay,
          chunks: batch.chunks,
        });
        ts = res.ts;
        if (!ts) throw new Error('chat.startStream returned no ts');
        state = 'live';
        startedAt = now();
        textsLanded += batch.texts;
        resolveTs(ts);
      } catch (err) {
        state = 'unstarted';
        ticket.release();
        lose(batch.chunks);
        resolveTs(undefined);
        const unsupported = isStreamingUnsupported(err);
        if (!unsupported) logger.warn({ err, channel }, 'could not start a native stream');
        options.onUnstarted(err, unsupported);
      }
      return;
    }
    if (tooOld()) return stopForAge(batch);
    try {
      await client.chat.appendStream({ channel, ts: ts!, chunks: batch.chunks });
      textsLanded += batch.texts;
    } catch (err) {
      if (state === 'closed') return; // closed meanwhile (agent_session_stopped): nothing more to do
      const kind = failure(err);
      if (kind === 'ratelimited') {
        queue = [...batch.source, ...queue]; // sent again once the wait is over
        lastAt = now() + retryAfterMs(err) - options.intervalMs;
        return;
      }
      lose(batch.chunks);
      if (kind === 'expired') {
        state = 'expired';
        ticket.release();
      } else if (kind === 'user') {
        ticket.release();
        close('user');
      } else if (kind === 'refused') {
        logger.warn({ err, channel }, 'Slack refused a native stream; the answer goes on in a new message');
        await callStop({ chunks: [], texts: 0, source: [] });
        close('refused');
      } else {
        logger.warn({ err, channel }, 'could not append to a native stream');
      }
    }
  }

  const wakeIdle = () => {
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const wake of waiters) wake();
  };

  const pump = (): void => {
    if (!accepting()) {
      lose(queue);
      queue = [];
    }
    if (inFlight || timer) return;
    // Once stopping, what fits in one call goes with the stop itself (one call fewer), unless the stream is
    // past its age: then the rest goes on in a new message, never in a stop Slack may refuse as expired.
    const fitsInStop = closing && state === 'live' && !tooOld() && takeBatch(queue).taken === queue.length;
    if (queue.length === 0 || fitsInStop) {
      wakeIdle();
      return;
    }
    let wait = lastAt + options.intervalMs - now();
    if (wait <= 0 && state === 'live' && !tooOld()) {
      const budget = ticket.append();
      if (budget > 0) wait = budget;
    }
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
    inFlight = send(batch).finally(() => {
      lastAt = Math.max(lastAt, now());
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
      closing = true;
      await drained();
      if (state === 'idle' || state === 'unstarted') {
        if (state === 'idle') ticket.release();
        resolveTs(undefined);
        return 'unstarted';
      }
      if (state === 'closed') return 'ended';
      if (state !== 'live') return 'expired';
      // Stopping now is what the age limit asks for anyway: the last chunks and the blocks go with it.
      const last = takeBatch(queue);
      queue = [];
      const err = await callStop(last, final.blocks);
      if (err) {
        lose(last.chunks);
        const kind = failure(err);
        if (kind === 'expired') {
          state = 'expired';
          return 'expired';
        }
        if (kind === 'user' || kind === 'refused') {
          close(kind);
          return 'ended';
        }
        // The content may be in; the closing (and its buttons) failed.
        logger.warn({ err, channel }, 'could not stop a native stream');
      }
      state = 'stopped';
      return textIntact ? 'stopped' : 'expired';
    },
    ts: () => tsPromise,
    get textIntact() {
      return textIntact;
    },
    get textsLanded() {
      return textsLanded;
    },
    get expired() {
      return state === 'expired';
    },
    get closedBy() {
      return closedBy;
    },
    closedByUser() {
      if (!accepting()) return;
      if (state === 'idle') resolveTs(undefined);
      ticket.release();
      state = 'closed';
      closedBy = 'user';
      options.onClosed?.('user');
    },
  };
}

/** How long Slack asks to wait after `ratelimited` (its `Retry-After`), or a second. */
function retryAfterMs(err: unknown): number {
  const seconds = (err as { retryAfter?: number; data?: { response_metadata?: { retryAfter?: number } } })
    ?.retryAfter;
  return Math.max(1, seconds ?? 1) * 1000;
}

/**
 * The next call's chunks: at most CHUNKS_PER_CALL, neighbouring text joined into one chunk, and a task
 * updated twice sent once in its latest state.
 */
function takeBatch(queue: readonly types.AnyChunk[]): Batch & { taken: number } {
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
  const source = queue.slice(0, taken);
  return { chunks, taken, source, texts: source.filter((c) => c.type === 'markdown_text').length };
}

/** One call's chunks, and the markdown chunks pushed that they carry (joined text counts each). */
interface Batch {
  chunks: types.AnyChunk[];
  texts: number;
  source: types.AnyChunk[];
}
