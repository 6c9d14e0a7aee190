import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** Path of the health check served on PORT. */
export const HEALTH_PATH = '/healthz';

/** Answers a health check: 200 while the adapter can receive events, else 503. */
export function healthHandler(
  status: () => { ok: boolean; mode: 'http' | 'socket' },
): (req: IncomingMessage, res: ServerResponse) => void {
  return (_req, res) => {
    const { ok, mode } = status();
    res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ status: ok ? 'ok' : 'unavailable', platform: 'slack', mode }));
  };
}

/**
 * A tiny server for GET /healthz when Bolt has no HTTP server of its own (Socket Mode). Resolves once
 * listening on `port` (0 picks a free one).
 */
export async function startHealthServer(
  port: number,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<Server> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method === 'GET' && path === HEALTH_PATH) return handler(req, res);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
