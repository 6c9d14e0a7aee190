import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';

/** undici's response body: a Node stream that can also be read whole as text. */
type BodyReadable = Readable & { text(): Promise<string> };

/**
 * The part of a fetch `Response` the `openai` SDK reads (status, `ok`, headers, `text()` for an error's
 * body), plus the body as a Node stream, which this client reads itself (read-sse-json, read-json-body).
 */
export interface ModelResponse {
  readonly url: string;
  readonly status: number;
  readonly ok: boolean;
  readonly headers: ResponseHeaders;
  readonly body: Readable;
  text(): Promise<string>;
}

/** Response headers with the lookups the SDK makes (`get`, `entries`); names are lower-case, as undici gives them. */
class ResponseHeaders {
  constructor(private readonly raw: IncomingHttpHeaders) {}
  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }
  *entries(): IterableIterator<[string, string]> {
    for (const name of Object.keys(this.raw)) yield [name, this.get(name)!];
  }
}

class LeanResponse implements ModelResponse {
  readonly ok: boolean;
  readonly headers: ResponseHeaders;
  constructor(
    readonly url: string,
    readonly status: number,
    headers: IncomingHttpHeaders,
    readonly body: BodyReadable,
  ) {
    this.ok = status >= 200 && status < 300;
    this.headers = new ResponseHeaders(headers);
  }
  text(): Promise<string> {
    return this.body.text();
  }
}

/** Loaded with the first model call: a bot that is only started does not hold it. */
let undici: Promise<typeof import('undici')> | undefined;

/**
 * The `fetch` the `openai` SDK is given: one request over undici's dispatcher API, whose response body is a
 * Node stream. The SDK reads only status, headers and, for an error, the body's text; what fetch adds on
 * top (a web stream for the request body and a tee of it for redirects, a web stream for the response,
 * Request, Response and Headers objects) is about a fifth of what each model call allocates, which at a
 * thousand runs in flight is the difference in peak memory and in garbage-collection pauses. Redirects are
 * not followed: an OpenAI-compatible API answers a POST directly (following a 301 would turn it into a GET).
 */
export async function leanFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  undici ??= import('undici');
  const { request } = await undici;
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const response = await request(url, {
    method: (init.method ?? 'GET') as 'GET',
    // The SDK passes a Headers object; an array of pairs is flattened, as undici takes arrays flat.
    headers: (Array.isArray(init.headers) ? init.headers.flat() : init.headers) as
      | Iterable<[string, string]>
      | string[]
      | undefined,
    body: init.body as string | Uint8Array | null | undefined,
    signal: init.signal ?? undefined,
  });
  const body = response.body as unknown as BodyReadable;
  return new LeanResponse(url, response.statusCode, response.headers, body) as unknown as Response;
}
