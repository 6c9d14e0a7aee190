import { ModelError } from '../errors.js';
import { pauseIfBusy } from '../util/pauser.js';

/**
 * Reads a server-sent-event body and calls `onData` with each event's `data`, parsed as JSON, until
 * `[DONE]` or the end. Returns the number of events read. A body silent for `idleMs` is cancelled and fails
 * with a clear error (the request's own timeout ends when the headers arrive). Events that arrived in one
 * network chunk are split in one synchronous pass: no promise per event, which is most of what a streamed
 * completion costs the client (the `openai` SDK's stream chains three async generators per event). Forgiving as servers need: CRLF or LF lines, `data:` with or
 * without the space, comments, a last event without its blank line.
 */
export async function readSseJson(
  body: ReadableStream<Uint8Array> | null,
  onData: (data: unknown) => void,
  idleMs = 0,
): Promise<number> {
  if (!body) return 0;
  const reader = body.getReader();
  const idle = idleMs > 0 ? createIdleTimer(idleMs, () => void reader.cancel().catch(() => {})) : undefined;
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string | undefined;
  let event = '';
  let events = 0;
  let done = false;
  let ended = false;

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
      if (newline === -1) break;
    }
    return pos >= text.length ? '' : text.slice(pos);
  };

  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) {
        if (idle?.expired) throw stalled();
        ended = true;
        break;
      }
      idle?.touch();
      const paused = pauseIfBusy();
      if (paused) await paused;
      buffer = readLines(buffer + decoder.decode(chunk.value, { stream: true }), false);
      if (done) break;
    }
    if (!done) {
      readLines(buffer + decoder.decode(), true);
      dispatch();
    }
    return events;
  } catch (err) {
    throw idle?.expired ? stalled(err) : err;
  } finally {
    idle?.stop();
    // After `[DONE]`, a failure or an abort, the rest of the body is not wanted: free the connection.
    if (!ended) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

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
