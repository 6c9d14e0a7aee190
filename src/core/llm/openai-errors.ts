import OpenAI from 'openai';
import { isAbortError, ModelError } from '../errors.js';

/** Where requests go, as error messages name it: never credentials, never a query string. */
export interface Endpoint {
  /** e.g. `http://localhost:11434/v1`, or `https://api.openai.com/v1` for the default. */
  base: string;
  /** `host:port`. */
  hostPort: string;
  /** The base URL's path does not end in `/v1`, the usual mount point of OpenAI-compatible servers. */
  missingV1: boolean;
  model: string;
  /** The setting that names the address (`OPENAI_BASE_URL`, `LLM_FALLBACK`). */
  setting: string;
}

/** The endpoint as error messages name it. */
export function describeEndpoint(
  baseURL: string | undefined,
  model: string,
  setting = 'OPENAI_BASE_URL',
): Endpoint {
  const url = new URL(baseURL ?? 'https://api.openai.com/v1');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const path = url.pathname.replace(/\/+$/, '');
  return {
    base: `${url.protocol}//${url.host}${path}`,
    hostPort: `${url.hostname}:${port}`,
    missingV1: baseURL !== undefined && !/\/v\d+$/.test(path),
    model,
    setting,
  };
}

/** The `code` of the innermost cause that has one (e.g. ECONNREFUSED under fetch's "fetch failed"). */
function causeCode(err: unknown): string | undefined {
  for (let cause = err, depth = 0; cause && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('E')) return code;
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Maps SDK errors to short ModelErrors whose messages are safe to show users (no keys, no bodies). */
export function toModelError(err: unknown, endpoint: Endpoint): unknown {
  if (err instanceof ModelError || isAbortError(err)) return err;
  if (err instanceof OpenAI.APIUserAbortError) return err;
  if (err instanceof OpenAI.APIConnectionTimeoutError) {
    return new ModelError('model_unavailable', 'The model did not answer in time.', undefined, err);
  }
  if (err instanceof OpenAI.APIConnectionError) {
    const code = causeCode(err);
    // Refused or unknown host: a setting or a stopped server, which waiting will not fix.
    const message =
      code === 'ECONNREFUSED'
        ? `Nothing is listening at ${endpoint.base} (connection refused): start the model server there or correct ${endpoint.setting}.`
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? `The host of ${endpoint.base} could not be found: correct ${endpoint.setting}.`
          : `The model server at ${endpoint.base} could not be reached${code ? ` (${code})` : ''}.`;
    const lasting = code === 'ECONNREFUSED' || code === 'ENOTFOUND';
    return new ModelError('model_unavailable', message, undefined, err, !lasting);
  }
  if (err instanceof OpenAI.APIError) {
    const status = err.status;
    if (status === 401 || status === 403) {
      return new ModelError('model_error', 'The model server rejected the API key.', status, err);
    }
    if (status === 429) {
      return new ModelError('model_unavailable', 'The model is rate-limited right now.', status, err);
    }
    if (status !== undefined && status >= 500) {
      return new ModelError('model_unavailable', `The model server failed (HTTP ${status}).`, status, err);
    }
    if (status !== undefined && status >= 300 && status < 400) {
      // Redirects are not followed (see leanFetch); the location is not shown, it may carry a token.
      return new ModelError(
        'model_error',
        `${endpoint.base} answered with a redirect (HTTP ${status}): set ${endpoint.setting} to the address it redirects to.`,
        status,
        err,
      );
    }
    if (status === 404) {
      const modelMissing = err.code === 'model_not_found' || /model/i.test(err.message);
      const hint =
        endpoint.missingV1 && !modelMissing
          ? `${endpoint.base}/chat/completions answered 404: OpenAI-compatible servers usually serve under /v1, so ${endpoint.setting} may need to end in /v1.`
          : endpoint.setting === 'OPENAI_BASE_URL'
            ? `The model server answered 404: check LLM_MODEL ("${endpoint.model}") and OPENAI_BASE_URL (${endpoint.base}).`
            : `The model server answered 404: check the ${endpoint.setting} entry "${endpoint.model}@${endpoint.base}".`;
      return new ModelError('model_error', hint, status, err);
    }
    return new ModelError(
      'model_error',
      `The model rejected the request (HTTP ${status ?? '?'}).`,
      status,
      err,
    );
  }
  if (err instanceof SyntaxError) {
    return new ModelError('model_error', 'The model server sent a malformed response.', undefined, err);
  }
  // Past the headers, the SDK is done: a connection that breaks while the body is read surfaces as undici's
  // own error (UND_ERR_SOCKET "other side closed") or a system one (ECONNRESET).
  const code = (err as { code?: unknown } | null)?.code;
  const system = causeCode(err);
  if ((typeof code === 'string' && code.startsWith('UND_ERR')) || (system && !system.startsWith('ERR_'))) {
    return new ModelError(
      'model_unavailable',
      'The connection to the model broke before its answer was complete.',
      undefined,
      err,
    );
  }
  return err;
}
