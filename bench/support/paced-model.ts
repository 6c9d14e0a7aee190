import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Options of {@link startPacedModel}. */
export interface PacedModelOptions {
  /** What the model answers to every request. */
  text: string;
  /** Characters per streamed chunk. */
  chunkChars: number;
  /** Milliseconds between chunks, like a model generating at a steady rate. */
  chunkEveryMs: number;
}

/** An OpenAI-compatible endpoint that streams one fixed answer at a steady rate (or sends it whole). */
export async function startPacedModel(options: PacedModelOptions) {
  let requests = 0;
  /** When the latest streamed request's first content chunk was written (Date.now() and performance.now()). */
  let firstChunk: { wall: number; mono: number } | undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      requests++;
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { stream?: boolean };
      const base = { id: `chatcmpl-paced-${requests}`, created: 0, model: 'paced' };
      if (!body.stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            ...base,
            object: 'chat.completion',
            choices: [
              { index: 0, message: { role: 'assistant', content: options.text }, finish_reason: 'stop' },
            ],
            usage: { prompt_tokens: 100, completion_tokens: 1500, total_tokens: 1600 },
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const send = (delta: object, finish: string | null = null) =>
        res.write(
          `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
        );
      send({ role: 'assistant', content: '' });
      for (let i = 0; i < options.text.length && !res.destroyed; i += options.chunkChars) {
        await new Promise((resolve) => setTimeout(resolve, options.chunkEveryMs));
        if (i === 0) firstChunk = { wall: Date.now(), mono: performance.now() };
        send({ content: options.text.slice(i, i + options.chunkChars) });
      }
      send({}, 'stop');
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    /** Requests served so far. */
    requests: () => requests,
    /** When the first answer token of the latest streamed request went out. */
    firstChunk: () => firstChunk,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
