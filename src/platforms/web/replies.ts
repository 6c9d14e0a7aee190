import type { ServerResponse } from 'node:http';
import { SECURITY_HEADERS } from './security-headers.js';

/** Answers with a JSON body (or none, for 204), the security headers and `headers`. */
export function reply(
  res: ServerResponse,
  status: number,
  body?: unknown,
  headers: Record<string, string | string[]> = {},
): void {
  const common = { ...SECURITY_HEADERS, 'cache-control': 'no-store', ...headers };
  if (body === undefined) {
    res.writeHead(status, common);
    res.end();
    return;
  }
  res.writeHead(status, { ...common, 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}
