import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { withDeadline } from '../helpers/wait-until.js';

/** A tool call the scripted model makes; `arguments` may be an object (JSON-encoded for you) or raw text. */
export interface ScriptedToolCall {
  name: string;
  arguments: unknown;
  id?: string;
}

/** One scripted reply of the fake model. */
export type ScriptStep =
  | {
      content?: string | null;
      /** DeepSeek-style `reasoning_content`: streamed before the content, or on the whole message. */
      reasoning?: string;
      toolCalls?: ScriptedToolCall[];
      /** Usage figures to report; the cache fields as OpenAI (`prompt_tokens_details`) or DeepSeek report them. */
      usage?: {
        prompt_tokens: number;
        completion_tokens: number;
        prompt_tokens_details?: { cached_tokens: number };
        prompt_cache_hit_tokens?: number;
      };
      finishReason?: string;
      /** Milliseconds to wait before answering. */
      delayMs?: number;
      /** Holds the reply until this settles: a gate the test opens (see tests/helpers/gate.ts). */
      until?: PromiseLike<unknown>;
      /** Streamed only: milliseconds to go silent after the first content chunk (a stalled stream). */
      stallMs?: number;
      /**
       * Streamed only: after `chars` characters of content, waits for `until` (default: forever) or for the
       * client to hang up, e.g. on Stop.
       */
      pauseAt?: { chars: number; until?: PromiseLike<unknown> };
    }
  | { status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number }
  /** Never answers (until the client gives up). */
  | { hang: true }
  /** Sends this body as-is with status 200. */
  | { raw: string };

/** A request the fake received, parsed. */
export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    messages: { role: string; content: unknown; tool_calls?: unknown[]; tool_call_id?: string }[];
    tools?: { type: string; function: { name: string; description?: string; parameters: unknown } }[];
    tool_choice?: unknown;
    stop?: string[] | string;
    stream?: boolean;
    stream_options?: unknown;
    [key: string]: unknown;
  };
}

/** Computes a reply from the request; used when the script is empty. */
export type Responder = (request: RecordedRequest) => ScriptStep;

/** Options for {@link startFakeOpenAI}. */
export interface FakeOpenAIOptions {
  /** Called for each request after the script runs out; default answers 500 "script exhausted". */
  fallback?: Responder;
  /** Characters per streamed content chunk (default 8). */
  chunkSize?: number;
}

/** A running scripted OpenAI-compatible server. */
export interface FakeOpenAI {
  /** Base URL to give the `openai` client (ends in `/v1`). */
  url: string;
  requests: RecordedRequest[];
  /** Appends replies to the script, consumed one per request in order. */
  script(...steps: (ScriptStep | Responder)[]): void;
  /** Replies not yet consumed. */
  pending(): number;
  /** TCP connections opened to it so far, and those still open. */
  connections(): { opened: number; open: number };
  /** Resolves once `count` requests have arrived; rejects with a clear error after `timeoutMs` (default 5 s). */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

let callCounter = 0;

/** Starts a local OpenAI-compatible chat completions server on a free loopback port. */
export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const queue: (ScriptStep | Responder)[] = [];
  const requests: RecordedRequest[] = [];
  const arrivals: (() => void)[] = [];
  const chunkSize = options.chunkSize ?? 8;
  const fallback: Responder =
    options.fallback ?? (() => ({ status: 500, body: { error: { message: 'script exhausted' } } }));

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void handle(req, res, Buffer.concat(chunks).toString('utf8'));
    });
  });
  server.keepAliveTimeout = 60_000;
  const connections = { opened: 0, open: 0 };
  server.on('connection', (socket) => {
    connections.opened++;
    connections.open++;
    socket.once('close', () => connections.open--);
  });

  async function handle(req: IncomingMessage, res: ServerResponse, raw: string): Promise<void> {
    if (req.method === 'GET' && req.url?.endsWith('/models')) {
      return json(res, 200, { object: 'list', data: [{ id: 'fake-model', object: 'model' }] });
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      return json(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
    }
    let body: RecordedRequest['body'];
    try {
      body = JSON.parse(raw);
    } catch {
      return json(res, 400, { error: { message: 'invalid JSON body' } });
    }
    const recorded: RecordedRequest = { path: req.url, headers: req.headers, body };
    requests.push(recorded);
    for (const notify of arrivals.splice(0)) notify();
    const next = queue.shift() ?? fallback;
    const step = typeof next === 'function' ? next(recorded) : next;

    if ('hang' in step) {
      req.socket.once('close', () => res.destroy());
      return;
    }
    if ('until' in step && step.until) await step.until;
    if ('delayMs' in step && step.delayMs) await sleep(step.delayMs);
    if (res.destroyed) return;
    if ('raw' in step) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(step.raw);
      return;
    }
    if ('status' in step) {
      return json(
        res,
        step.status,
        step.body ?? { error: { message: `scripted ${step.status}` } },
        step.headers,
      );
    }
    const content = step.content ?? null;
    const toolCalls = (step.toolCalls ?? []).map((call) => ({
      id: call.id ?? `call_${++callCounter}`,
      type: 'function' as const,
      function: {
        name: call.name,
        arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
      },
    }));
    const promptTokens = step.usage?.prompt_tokens ?? estimateTokens(JSON.stringify(body.messages));
    const completionTokens =
      step.usage?.completion_tokens ?? estimateTokens(content ?? '') + toolCalls.length * 10;
    const usage = {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      ...(step.usage?.prompt_tokens_details
        ? { prompt_tokens_details: step.usage.prompt_tokens_details }
        : {}),
      ...(step.usage?.prompt_cache_hit_tokens !== undefined
        ? { prompt_cache_hit_tokens: step.usage.prompt_cache_hit_tokens }
        : {}),
    };
    const finishReason = step.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop');
    const id = `chatcmpl-${++callCounter}`;
    const created = Math.floor(Date.now() / 1000);

    if (!body.stream) {
      return json(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model: body.model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content,
              ...(step.reasoning ? { reasoning_content: step.reasoning } : {}),
              ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
            },
            finish_reason: finishReason,
          },
        ],
        usage,
      });
    }

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (delta: unknown, finish: string | null = null) =>
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
      );
    send({ role: 'assistant', content: '' });
    const reasoning = step.reasoning ?? '';
    for (let i = 0; i < reasoning.length; i += chunkSize) {
      send({ content: null, reasoning_content: reasoning.slice(i, i + chunkSize) });
    }
    const text = content ?? '';
    const pause = step.pauseAt;
    const hungUp = new Promise<void>((resolve) => res.once('close', () => resolve()));
    for (let i = 0; i < text.length; i += chunkSize) {
      // The chunk that reaches `pause.chars` ends there, and the stream waits before the rest.
      const pausesHere = pause !== undefined && i < pause.chars && i + chunkSize >= pause.chars;
      const end = pausesHere ? pause.chars : i + chunkSize;
      send({ content: text.slice(i, end) });
      if (pausesHere) {
        await Promise.race([pause.until ?? new Promise(() => {}), hungUp]);
        i = end - chunkSize;
      }
      if (i === 0 && step.stallMs) await sleep(step.stallMs);
      if (res.destroyed) return;
    }
    toolCalls.forEach((call, index) => {
      const args = call.function.arguments;
      const half = Math.ceil(args.length / 2);
      send({
        tool_calls: [
          { index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } },
        ],
      });
      send({ tool_calls: [{ index, function: { arguments: args.slice(0, half) } }] });
      send({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] });
    });
    send({}, finishReason);
    const wantsUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage;
    if (wantsUsage) {
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage })}\n\n`,
      );
    }
    res.end('data: [DONE]\n\n');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...steps) => {
      queue.push(...steps);
    },
    pending: () => queue.length,
    connections: () => ({ ...connections }),
    waitForRequests: async (count, timeoutMs) => {
      const arrived = async () => {
        while (requests.length < count) await new Promise<void>((r) => arrivals.push(r));
      };
      await withDeadline(arrived(), {
        what: `${count} model request(s)`,
        ...(timeoutMs ? { timeoutMs } : {}),
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Rough token estimate for scripted usage figures (tests asserting real counts use a tokenizer). */
function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
