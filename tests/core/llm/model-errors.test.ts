import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIChatModel } from '../../../src/core/llm/openai-chat-model.js';
import { MAX_REPLY_CHARS } from '../../../src/core/llm/openai-reply.js';
import { type FakeOpenAI, startFakeOpenAI } from '../../fakes/openai-server.js';
import { freePort } from '../../helpers/free-port.js';

const ask = (baseURL: string, model = 'gpt-4o-mini') =>
  createOpenAIChatModel({
    baseURL,
    model,
    maxRetries: 0,
    timeoutMs: 10_000,
    stream: false,
    apiKey: 'sk-test-123456',
  }).complete({ messages: [{ role: 'user', content: 'hi' }] });

/**
 * A model server whose replies a test writes by hand (`reply` gets whether the request asked to stream), and
 * the client for it, streaming or not.
 */
async function handWrittenServer(reply: (res: ServerResponse, streamed: boolean) => void) {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => reply(res, (JSON.parse(body) as { stream?: boolean }).stream === true));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    modelFor: (stream: boolean) =>
      createOpenAIChatModel({
        baseURL: `http://127.0.0.1:${port}/v1`,
        model: 'm',
        maxRetries: 0,
        timeoutMs: 10_000,
        stream,
      }),
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

describe('model errors a new user meets', () => {
  let fake: FakeOpenAI | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('names the address, and the setting to fix, when nothing listens there', async () => {
    const port = await freePort();
    await expect(ask(`http://127.0.0.1:${port}/v1`)).rejects.toThrow(
      `Nothing is listening at http://127.0.0.1:${port}/v1 (connection refused): start the model server there or correct OPENAI_BASE_URL.`,
    );
  });

  it('suggests /v1 when a base URL without it answers 404', async () => {
    // A server that serves only under /v1, as Ollama and vLLM do.
    const server = createServer((req, res) => {
      res.writeHead(req.url?.startsWith('/v1/') ? 200 : 404, { 'content-type': 'text/plain' });
      res.end('404 page not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await expect(ask(`http://127.0.0.1:${port}`)).rejects.toThrow(
        `http://127.0.0.1:${port}/chat/completions answered 404: OpenAI-compatible servers usually serve under /v1, so OPENAI_BASE_URL may need to end in /v1.`,
      );
    } finally {
      server.close();
    }
  });

  it('asks for the final address when the base URL redirects, without following it', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(301, { location: `https://example.invalid${req.url}?token=secret` });
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const failure = await ask(`http://127.0.0.1:${port}/v1`).catch((err: Error) => err);
      expect((failure as Error).message).toBe(
        `http://127.0.0.1:${port}/v1 answered with a redirect (HTTP 301): set OPENAI_BASE_URL to the address it redirects to.`,
      );
      expect(String(failure)).not.toContain('secret');
      expect(seen).toEqual(['POST /v1/chat/completions']);
    } finally {
      server.close();
    }
  });

  it('says the connection broke when a server hangs up mid-answer, streamed or whole', async () => {
    const server = await handWrittenServer((res, streamed) => {
      res.writeHead(200, { 'content-type': streamed ? 'text/event-stream' : 'application/json' });
      res.write(streamed ? 'data: {"choices":[{"index":0,"delta":{"content":"Hel"}}]}\n\n' : '{"choices":[');
      setImmediate(() => res.socket?.destroy());
    });
    try {
      for (const stream of [true, false]) {
        await expect(
          server.modelFor(stream).complete({ messages: [{ role: 'user', content: 'hi' }] }),
        ).rejects.toThrow('The connection to the model broke before its answer was complete.');
      }
    } finally {
      server.close();
    }
  });

  it('stops reading a reply that never ends: a stream is cut as at a length limit, a whole reply refused', async () => {
    // Endless output from a broken server: 64 KB events (or JSON) until the client hangs up.
    const server = await handWrittenServer((res, streamed) => {
      res.writeHead(200, { 'content-type': streamed ? 'text/event-stream' : 'application/json' });
      const piece = 'y'.repeat(65_536);
      const event = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: piece } }] })}\n\n`;
      if (!streamed) res.write('{"choices":[{"index":0,"message":{"role":"assistant","content":"');
      const pump = () => {
        while (!res.destroyed && res.write(streamed ? event : piece)) {}
        if (!res.destroyed) res.once('drain', pump);
      };
      res.on('close', () => res.removeAllListeners('drain'));
      pump();
    });
    try {
      const cut = await server.modelFor(true).complete({ messages: [{ role: 'user', content: 'hi' }] });
      expect(cut.finishReason).toBe('length');
      expect(cut.content.length).toBeGreaterThan(1_000_000);
      expect(cut.content.length).toBeLessThanOrEqual(MAX_REPLY_CHARS);
      await expect(
        server.modelFor(false).complete({ messages: [{ role: 'user', content: 'hi' }] }),
      ).rejects.toThrow("The model server's reply was too large (over 8 million characters).");
    } finally {
      server.close();
    }
  });

  it('points at LLM_MODEL when the model is unknown', async () => {
    fake = await startFakeOpenAI();
    fake.script({
      status: 404,
      body: { error: { message: 'model "nope" not found', code: 'model_not_found' } },
    });
    await expect(ask(fake.url, 'nope')).rejects.toThrow('check LLM_MODEL ("nope")');
  });
});

describe('completions that are JSON but not a completion', () => {
  let fake: FakeOpenAI | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('says the model returned no choices, for an empty object, a choice without a message, or null', async () => {
    for (const raw of ['{}', '{"choices":[{}]}', 'null', '{"choices":[]}']) {
      fake = await startFakeOpenAI({ fallback: () => ({ raw }) });
      await expect(ask(fake.url), raw).rejects.toThrow('The model returned no choices.');
      await fake.close();
      fake = undefined;
    }
  });

  it('calls a body that is not JSON a malformed response', async () => {
    fake = await startFakeOpenAI({ fallback: () => ({ raw: '<html>502 Bad Gateway</html>' }) });
    await expect(ask(fake.url)).rejects.toThrow('malformed response');
  });
});
