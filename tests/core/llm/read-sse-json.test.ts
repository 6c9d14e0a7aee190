import { once } from 'node:events';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readSseJson } from '../../../src/core/llm/read-sse-json.js';

/** A body delivered in exactly these network chunks; `cancelled` tells whether it was destroyed before its end. */
function body(chunks: (string | Uint8Array)[]) {
  const state = { cancelled: false };
  let i = 0;
  const stream = new Readable({
    read() {
      const chunk = chunks[i++];
      this.push(chunk === undefined ? null : Buffer.from(chunk));
    },
    destroy(err, callback) {
      if (!this.readableEnded) state.cancelled = true;
      callback(err);
    },
  });
  return { stream, state };
}

async function read(chunks: (string | Uint8Array)[]) {
  const seen: unknown[] = [];
  const { stream, state } = body(chunks);
  const { events: count } = await readSseJson(stream, (d) => seen.push(d));
  if (!stream.closed) await once(stream, 'close');
  return { seen, count, cancelled: state.cancelled };
}

describe('readSseJson', () => {
  it('reads events split anywhere across network chunks, including inside a UTF-8 character', async () => {
    const text = 'data: {"a":"café ☕"}\n\ndata: {"b":2}\n\ndata: [DONE]\n\n';
    const bytes = new TextEncoder().encode(text);
    const cut = text.indexOf('☕') + 3; // inside the 3-byte UTF-8 sequence of ☕ (counted in bytes below)
    const at = new TextEncoder().encode(text.slice(0, cut - 3)).length + 1;
    const { seen, count } = await read([bytes.slice(0, 5), bytes.slice(5, at), bytes.slice(at)]);
    expect(seen).toEqual([{ a: 'café ☕' }, { b: 2 }]);
    expect(count).toBe(2);
  });

  it('takes CRLF lines, data without the space, comments, and data over several lines', async () => {
    const { seen } = await read([': keep-alive\r\n\r\ndata:{"a":1}\r', '\n\r\ndata: {"b":\ndata: 2}\n\n']);
    expect(seen).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('reads a last event that has no blank line after it', async () => {
    const { seen } = await read(['data: {"a":1}\n\ndata: {"b":2}']);
    expect(seen).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('stops at [DONE] and cancels the rest of the body', async () => {
    const { seen, cancelled } = await read(['data: {"a":1}\n\ndata: [DONE]\n\n', 'data: {"late":1}\n\n']);
    expect(seen).toEqual([{ a: 1 }]);
    expect(cancelled).toBe(true);
  });

  it('reads zero events from an HTML error page', async () => {
    const { count } = await read(['<html>502 Bad Gateway</html>']);
    expect(count).toBe(0);
  });

  it('fails with a clear error on an error event, and cancels the body', async () => {
    const { stream, state } = body(['data: {"a":1}\n\ndata: {"error":{"message":"overloaded"}}\n\n', 'x']);
    await expect(readSseJson(stream, () => {})).rejects.toThrow('reported an error while answering');
    if (!stream.closed) await once(stream, 'close');
    expect(state.cancelled).toBe(true);
  });

  it('fails on an event that is not JSON', async () => {
    const { stream } = body(['data: {"a":\n\n']);
    await expect(readSseJson(stream, () => {})).rejects.toThrow(SyntaxError);
  });

  it('gives up on a body that goes silent for idleMs, with a clear error, and cancels it', async () => {
    let cancelled = false;
    let sent = false;
    const silent = new Readable({
      read() {
        if (!sent) this.push(Buffer.from('data: {"a":1}\n\n'));
        sent = true;
      },
      destroy(err, callback) {
        cancelled = true;
        callback(err);
      },
    });
    const seen: unknown[] = [];
    await expect(readSseJson(silent, (d) => seen.push(d), 30)).rejects.toThrow('The model stopped sending');
    expect(seen).toEqual([{ a: 1 }]);
    expect(cancelled).toBe(true);
  });

  it('leaves a body that ends right after [DONE] to end, so its connection is kept', async () => {
    const { cancelled, seen } = await read(['data: {"a":1}\n\ndata: [DONE]\n\n']);
    expect(seen).toEqual([{ a: 1 }]);
    expect(cancelled).toBe(false);
  });

  it('fails clearly when the connection breaks before the answer is complete', async () => {
    let i = 0;
    const broken = new Readable({
      read() {
        if (i++ === 0) this.push(Buffer.from('data: {"a":1}\n\n'));
        else this.destroy(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }));
      },
    });
    await expect(readSseJson(broken, () => {})).rejects.toThrow('other side closed');
    const closed = new Readable({
      read() {
        this.destroy();
      },
    });
    await expect(readSseJson(closed, () => {})).rejects.toThrow('closed before its answer was complete');
  });

  it('stops reading a reply past maxChars and says it was cut, closing the body', async () => {
    const event = `data: ${JSON.stringify({ a: 'x'.repeat(90) })}\n\n`;
    const { stream, state } = body(Array.from({ length: 1000 }, () => event));
    const seen: unknown[] = [];
    const read = await readSseJson(stream, (d) => seen.push(d), 0, 10 * event.length);
    expect(read.cut).toBe(true);
    expect(seen.length).toBeLessThanOrEqual(10);
    expect(seen.length).toBeGreaterThan(0);
    if (!stream.closed) await once(stream, 'close');
    expect(state.cancelled).toBe(true);
  });
});
