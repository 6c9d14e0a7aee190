import type { IncomingMessage, ServerResponse } from 'node:http';

/** One browser's server-sent events connection. */
export interface EventStream {
  /** Sends one event; a client too slow to take it is disconnected (it reconnects and catches up). */
  send(event: string, data: unknown): void;
  /** Ends the connection. */
  close(): void;
  /** Calls `listener` once when the connection ends, from either side. */
  onClose(listener: () => void): void;
}

/** Comments keep proxies and browsers from dropping a quiet connection. */
const HEARTBEAT_MS = 20_000;
/** A client this far behind is cut off rather than buffered for. */
const MAX_BUFFERED_BYTES = 1_000_000;
/** How soon the browser reconnects after a drop. */
const RETRY_MS = 1500;

/** Turns `res` into an event stream. */
export function openEventStream(
  req: IncomingMessage,
  res: ServerResponse,
  headers: Record<string, string>,
): EventStream {
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
  });
  res.write(`retry: ${RETRY_MS}\n\n`);
  const listeners: (() => void)[] = [];
  let closed = false;
  const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  const end = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    res.end();
    for (const listener of listeners.splice(0)) listener();
  };
  req.once('close', end);
  res.once('close', end);
  return {
    send(event, data) {
      if (closed) return;
      if (res.writableLength > MAX_BUFFERED_BYTES) return end();
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    close: end,
    onClose(listener) {
      if (closed) listener();
      else listeners.push(listener);
    },
  };
}
