import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local OpenAI-compatible `POST /v1/embeddings`. It refuses what OpenAI's reference refuses
 * (https://platform.openai.com/docs/api-reference/embeddings/create, as quoted by the openapi.yaml
 * `CreateEmbeddingRequest`): a missing `model`; an `input` that is not a string or an array of strings;
 * an empty string ("cannot be an empty string"); more than 2,048 inputs ("any array must be 2048
 * dimensions or less"); an input over 8,192 tokens (estimated at 4 characters a token); `dimensions` for a
 * model that is not text-embedding-3 ("Only supported in text-embedding-3 and later models");
 * `encoding_format` other than "float" or "base64". Errors are 400 with `error.type` invalid_request_error.
 * The answer is `{ object: 'list', data: [{ object: 'embedding', index, embedding }], model, usage }`, the
 * vectors as float arrays or, asked for "base64" (the openai SDK's default), little-endian float32 bytes.
 */
export interface FakeEmbeddings {
  url: string;
  /** Texts received, one entry per request. */
  requests: { model: string; input: string[] }[];
  /** Makes the next `count` requests fail with this status. */
  failNext(count: number, status?: number): void;
  close(): Promise<void>;
}

/** A scripted embedding: words mapped to concepts (see CONCEPTS), each concept hashed to dimensions. */
export type EmbedFn = (text: string, dimensions: number) => number[];

// Words that mean the same to the scripted model: what a real embedding model learns, written down.
const CONCEPTS: Record<string, string> = Object.fromEntries(
  (
    'swap:swap,swaps,swapped,trade,trades,trading,exchange,exchanges,switch,switches|' +
    'approve:approve,approves,approved,approval,sign,signs,signoff,okay,okays,authorise,authorize,authorises|' +
    'shift:shift,shifts,rota,rotation,on-call,oncall,duty,pager|' +
    'pay:pay,paid,payment,compensation,compensated,salary,allowance,eur,money,remunerated|' +
    'weekend:weekend,weekends,saturday,sunday|' +
    'manager:manager,lead,boss,supervisor,head|' +
    'fast:fast,quickly,within,hours,deadline,soon|' +
    'hotel:hotel,hotels,lodging,accommodation,room,night,nights|' +
    'own:own,owns,owner,owned,ownership,responsible,maintains,maintainer'
  )
    .split('|')
    .flatMap((group) => {
      const [concept, words] = group.split(':') as [string, string];
      return words.split(',').map((w) => [w, concept]);
    }),
);

const hash = (s: string) => {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
};

/** The scripted embedding: each word's concept (or the word itself) adds to two hashed dimensions. */
export const conceptEmbedding: EmbedFn = (text, dimensions) => {
  const v = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}-]+/gu) ?? []) {
    const concept = CONCEPTS[word] ?? CONCEPTS[word.replace(/s$/, '')] ?? word;
    const h = hash(concept);
    v[h % dimensions]! += 1;
    v[(h >>> 16) % dimensions]! += 0.5;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
};

/** Starts the fake on a free loopback port; `dimensions` is the vector size when a request names none. */
export async function startFakeEmbeddings(
  options: {
    embed?: EmbedFn;
    dimensions?: number;
    /**
     * A local server's context in characters: a longer input is refused with 400, as Ollama does ("the
     * input length exceeds the context length", ollama/ollama server/routes.go EmbedHandler, truncate=false).
     */
    contextChars?: number;
  } = {},
): Promise<FakeEmbeddings> {
  const embed = options.embed ?? conceptEmbedding;
  const requests: FakeEmbeddings['requests'] = [];
  let failures: { count: number; status: number } = { count: 0, status: 500 };
  const refuse = (message: string, param: string | null) => ({
    status: 400,
    body: { error: { message, type: 'invalid_request_error', param, code: null } },
  });
  const answer = (raw: string): { status: number; body: unknown } => {
    if (failures.count > 0) {
      failures.count--;
      return {
        status: failures.status,
        body: { error: { message: 'scripted failure', type: 'server_error' } },
      };
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return refuse('We could not parse the JSON body of your request.', null);
    }
    if (typeof body.model !== 'string' || !body.model)
      return refuse("'model' is a required property", 'model');
    const input = typeof body.input === 'string' ? [body.input] : body.input;
    if (!Array.isArray(input) || !input.every((i) => typeof i === 'string'))
      return refuse("'$.input' is invalid.", 'input');
    if (input.length === 0 || input.length > 2048) return refuse("'$.input' is invalid.", 'input');
    if (input.some((i) => i === '')) return refuse("'$.input' is invalid.", 'input');
    if (input.some((i) => i.length / 4 > 8192))
      return refuse("This model's maximum context length is 8192 tokens.", 'input');
    if (options.contextChars && input.some((i) => i.length > options.contextChars!))
      return refuse('the input length exceeds the context length', 'input');
    const format = body.encoding_format ?? 'float';
    if (format !== 'float' && format !== 'base64')
      return refuse("'encoding_format' is invalid", 'encoding_format');
    if (body.dimensions !== undefined && !body.model.startsWith('text-embedding-3'))
      return refuse('This model does not support specifying dimensions.', 'dimensions');
    const dimensions = typeof body.dimensions === 'number' ? body.dimensions : (options.dimensions ?? 64);
    requests.push({ model: body.model, input });
    const data = input.map((text, index) => {
      const vector = embed(text, dimensions);
      const embedding =
        format === 'base64' ? Buffer.from(Float32Array.from(vector).buffer).toString('base64') : vector;
      return { object: 'embedding', index, embedding };
    });
    const tokens = input.reduce((n, i) => n + Math.ceil(i.length / 4), 0);
    return {
      status: 200,
      body: {
        object: 'list',
        data,
        model: body.model,
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      },
    };
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const reply =
        req.method === 'POST' && req.url?.endsWith('/embeddings')
          ? answer(Buffer.concat(chunks).toString('utf8'))
          : { status: 404, body: { error: { message: `no route ${req.method} ${req.url}` } } };
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    failNext(count, status = 500) {
      failures = { count, status };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
