import type { z } from 'zod';
import { ToolError } from '../errors.js';

/** Identifies thinkthread to outside APIs (Wikimedia asks every client for a descriptive User-Agent). */
export const USER_AGENT = 'thinkthread/0.1 (ReAct chat bot tools; Node.js fetch)';

/** A service failed or answered something unusable; the message is safe to show the model. */
export class ServiceError extends ToolError {
  constructor(message: string) {
    super(message, 'service_error');
  }
}

/** Options for {@link fetchJson}. */
export interface FetchJsonOptions {
  /** The service's name as error messages show it, e.g. "Open-Meteo". */
  service: string;
  signal: AbortSignal;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** Values (API keys) that must never appear in an error message. */
  secrets?: readonly (string | undefined)[];
  /** Largest response body accepted; default 2 MB. */
  maxBytes?: number;
}

/** The URL `path` under `base`, keeping any path prefix of `base`, with `params` as the query string. */
export function joinUrl(base: string, path: string, params: Record<string, string | number> = {}): URL {
  const url = new URL(path.replace(/^\/+/, ''), base.endsWith('/') ? base : `${base}/`);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, String(value));
  return url;
}

/**
 * Calls a JSON API and validates the answer with `schema`. Failures become short readable errors;
 * an abort through `signal` is rethrown as is, so the caller can tell a cancel from a failure.
 */
export async function fetchJson<S extends z.ZodType>(
  url: URL,
  schema: S,
  options: FetchJsonOptions,
): Promise<z.output<S>> {
  const { service, signal } = options;
  const redact = redactor(options.secrets ?? []);
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': USER_AGENT };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  Object.assign(headers, options.headers);

  let text: string;
  try {
    const response = await fetch(url, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal,
    });
    text = await readText(response, options.maxBytes ?? 2_000_000, service);
    if (!response.ok) throw new ServiceError(redact(statusMessage(service, response, text)));
  } catch (err) {
    if (signal.aborted) throw signal.reason ?? err;
    if (err instanceof ServiceError) throw err;
    throw new ServiceError(redact(`Could not reach ${service} (${networkReason(err)}).`));
  }

  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ServiceError(`${service} sent a response that is not valid JSON.`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    throw new ServiceError(
      `${service} sent an unexpected response (${issue?.message ?? 'invalid'}${where}).`,
    );
  }
  return parsed.data;
}

// Reads at most `maxBytes`, so a misbehaving service cannot fill memory.
async function readText(response: Response, maxBytes: number, service: string): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    // Leaving the loop by throwing cancels the rest of the download.
    if (size > maxBytes) throw new ServiceError(`${service} sent a response larger than ${maxBytes} bytes.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function statusMessage(service: string, response: Response, body: string): string {
  const hint =
    response.status === 401 || response.status === 403
      ? ' (check the API key)'
      : response.status === 429
        ? ' (rate limited; try again later)'
        : '';
  const isHtml = /^\s*</.test(body);
  const excerpt = isHtml ? '' : body.replace(/\s+/g, ' ').trim().slice(0, 200);
  return `${service} answered HTTP ${response.status}${hint}${excerpt ? `: ${excerpt}` : '.'}`;
}

function networkReason(err: unknown): string {
  const cause =
    err instanceof Error ? (err.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return err instanceof Error ? err.message : String(err);
}

function redactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const values = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 4);
  return (text) => values.reduce((out, secret) => out.split(secret).join('[redacted]'), text);
}
