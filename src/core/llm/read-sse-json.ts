import type { Readable } from 'node:stream';
import { ModelError } from '../errors.js';
import { pauseIfBusy } from '../util/pauser.js';

/**
 * Reads a server-sent-event body and calls `onData` with each event's `data`, parsed as JSON, until
 * `[DONE]`, the end, or `maxChars` (the rest is then not read, and the result says `cut`). A body silent for
 * `idleMs` is destroyed and fails with a clear error (the request's own timeout ends when the headers
 * arrive). Each network chunk is parsed in one synchronous pass as it arrives: no promise per chunk or per
 * event (the `openai` SDK's stream chains three async generators per event). While the process is busy the
 * body is paused, so many streams at once take turns. Forgiving as servers need: CRLF or LF lines, `data:`
 * with or without the space, comments, a last event without its blank line.
 */
export function readSseJson(
  body: Readable | null,
  onData: (data: unknown) => void,
  idleMs = 0,
  maxChars = Number.POSITIVE_INFINITY,
): Promise<SseRead> {
  if (!body) return Promise.resolve({ events: 0, cut: false });
  return new Promise<SseRead>((resolve, reject) => {
    let chars = 0;
    let cut = false;
    let buffer = '';
    let data: string | undefined;
    let event = '';
    let events = 0;
    let done = false;
    let settled = false;

    const dispatch = () => {
      const payload = data;
      const name = event;
      data = undefined;
      event = '';
      if (payload === undefined || done) return;
      if (payload.startsWith('[DONE]')) {
        done = true;
        return;
      }
      const parsed: unknown = JSON.parse(payload);
      if (name === 'error' || (parsed && typeof parsed === 'object' && 'error' in parsed && parsed.error)) {
        throw new ModelError('model_error', 'The model server reported an error while answering.');
      }
      events++;
      onData(parsed);
    };

    const readLines = (text: string, final: boolean) => {
      let pos = 0;
      for (;;) {
        const newline = text.indexOf('\n', pos);
        if (newline === -1 && !final) break;
        const end = newline === -1 ? text.length : newline;
        let line = text.slice(pos, end);
        pos = end + 1;
        if (line.endsWith('\r')) line = line.slice(0, -1);
        if (line === '') dispatch();
        else if (line.charCodeAt(0) !== 58 /* ':' starts a comment */) {
          const colon = line.indexOf(':');
          const field = colon === -1 ? line : line.slice(0, colon);
          let value = colon === -1 ? '' : line.slice(colon + 1);
          if (value.charCodeAt(0) === 32) value = value.slice(1);
          if (field === 'data') data = data === undefined ? value : `${data}\n${value}`;
          else if (field === 'event') event = value;
        }
        if (newline === -1 || done) break;
      }
      return pos >= text.length ? '' : text.slice(pos);
    };

    const idle = idleMs > 0 ? createIdleTimer(idleMs, () => body.destroy()) : undefined;

    let endWait: NodeJS.Timeout | undefined;
    const settle = (err?: unknown) => {
      if (settled) return;
      settled = true;
      idle?.stop();
      clearTimeout(endWait);
      body.off('data', onChunk);
      body.off('end', onEnd);
      body.off('close', onClose);
      // After a failure, an abort, or a body that went on past `[DONE]`, the rest is not wanted: the connection
      // is closed rather than kept for the next call.
      if (!body.readableEnded) body.destroy();
      if (err !== undefined) reject(err);
      else resolve({ events, cut });
    };

    const onChunk = (chunk: string) => {
      if (done) {
        settle();
        return;
      }
      idle?.touch();
      chars += chunk.length;
      if (chars > maxChars) {
        // A reply that never ends (a degenerate or hostile server) is cut here, as a length limit would.
        cut = true;
        settle();
        return;
      }
      try {
        buffer = readLines(buffer + chunk, false);
      } catch (err) {
        settle(err);
        return;
      }
      if (done) {
        // The body's end (the chunked terminator) normally follows at once. Waiting for it, briefly, lets the
        // connection go back to the pool for the next call, which saves a TLS handshake on a remote API.
        endWait = setTimeout(settle, END_WAIT_MS);
        return;
      }
      const paused = pauseIfBusy();
      if (paused) {
        body.pause();
        void paused.then(() => {
          if (!settled) body.resume();
        });
      }
    };
    const onEnd = () => {
      try {
        readLines(buffer, true);
        dispatch();
        settle();
      } catch (err) {
        settle(err);
      }
    };
    // Destroyed before its end: by the idle limit, an abort or a broken connection (whose error comes first).
    const onClose = () =>
      settle(
        done
          ? undefined
          : idle?.expired
            ? stalled()
            : new ModelError(
                'model_unavailable',
                'The connection to the model closed before its answer was complete.',
              ),
      );
    const onError = (err: unknown) => settle(idle?.expired ? stalled(err) : err);

    body.setEncoding('utf8');
    body.on('data', onChunk);
    body.on('end', onEnd);
    body.on('close', onClose);
    // Kept for good: an error after the answer was read (a late reset) must not be an unhandled 'error'.
    body.on('error', onError);
  });
}

/** What reading a stream came to: the events read, and whether it was cut at `maxChars`. */
export interface SseRead {
  events: number;
  cut: boolean;
}

/** How long the body may take to end once `[DONE]` has arrived before its connection is given up. */
const END_WAIT_MS = 100;

function stalled(cause?: unknown): ModelError {
  return new ModelError('model_unavailable', 'The model stopped sending its answer.', undefined, cause);
}

/** Calls `onIdle` once nothing has touched it for `ms`. A touch only notes the time: no timer is rescheduled per chunk. */
function createIdleTimer(ms: number, onIdle: () => void) {
  let touched = performance.now();
  let expired = false;
  const fire = () => {
    const left = ms - (performance.now() - touched);
    if (left > 0) {
      timer = setTimeout(fire, left);
      return;
    }
    expired = true;
    onIdle();
  };
  let timer = setTimeout(fire, ms);
  return {
    get expired() {
      return expired;
    },
    touch() {
      touched = performance.now();
    },
    stop() {
      clearTimeout(timer);
    },
  };
}
