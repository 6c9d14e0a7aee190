import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../core/logger.js';

/** Handles one request on a mounted route. */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** Where platforms mount the routes they receive requests on. */
export interface HttpRoutes {
  /** Serves `method path` (exact path) with `handler`; mounting the same route twice is a bug and throws. */
  mount(method: string, path: string, handler: RouteHandler): void;
}

/** One readiness check: resolves to undefined when fine, else a short reason (no secrets). */
export interface ReadinessCheck {
  name: string;
  check(): Promise<string | undefined> | string | undefined;
}

/** The process's one HTTP server: platform routes, `GET /healthz` and `GET /readyz`. */
export interface HttpServer extends HttpRoutes {
  /** Listens on `port` (0 picks a free one) and resolves with the port actually bound. */
  listen(port: number, host?: string): Promise<number>;
  /** Stops taking connections and closes idle ones; resolves once closed. */
  close(): Promise<void>;
}

/** Options of {@link createHttpServer}. */
export interface HttpServerOptions {
  /** What `GET /readyz` verifies: every enabled platform connected, the store reachable. */
  readiness: () => readonly ReadinessCheck[];
  logger: Logger;
  /** A check that has not answered within this long counts as failed (default 2000 ms). */
  checkTimeoutMs?: number;
}

/** Creates the server; nothing listens until `listen`. */
export function createHttpServer(options: HttpServerOptions): HttpServer {
  const { logger } = options;
  const routes = new Map<string, RouteHandler>();
  const paths = new Set<string>();
  const servers: Server[] = [];

  const mount = (method: string, path: string, handler: RouteHandler) => {
    const route = `${method.toUpperCase()} ${path}`;
    if (routes.has(route)) throw new Error(`HTTP route ${route} is mounted twice`);
    routes.set(route, handler);
    paths.add(path);
  };

  mount('GET', '/healthz', (_req, res) => json(res, 200, { status: 'ok' }));
  mount('GET', '/readyz', async (_req, res) => {
    const checks = await runChecks(options.readiness(), options.checkTimeoutMs ?? 2000);
    const failed = Object.entries(checks).filter(([, result]) => result !== 'ok');
    if (failed.length === 0) return json(res, 200, { status: 'ready', checks });
    const reason = failed.map(([name, result]) => `${name}: ${result}`).join('; ');
    json(res, 503, { status: 'not ready', reason, checks });
  });

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    let path: string;
    try {
      path = new URL(req.url ?? '/', 'http://localhost').pathname;
    } catch {
      return json(res, 400, { error: 'bad request' });
    }
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
    const handler = routes.get(`${method} ${path}`);
    if (!handler) {
      return paths.has(path)
        ? json(res, 405, { error: 'method not allowed' })
        : json(res, 404, { error: 'not found' });
    }
    Promise.resolve()
      .then(() => handler(req, res))
      .catch((err: unknown) => {
        logger.error({ err, path }, 'an HTTP handler failed');
        if (!res.headersSent) json(res, 500, { error: 'internal error' });
        else res.end();
      });
  };

  return {
    mount,
    async listen(port, host) {
      const server = createServer(handle);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      servers.push(server);
      return (server.address() as AddressInfo).port;
    },
    async close() {
      await Promise.all(
        servers.splice(0).map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              server.closeIdleConnections();
            }),
        ),
      );
    },
  };
}

async function runChecks(
  checks: readonly ReadinessCheck[],
  timeoutMs: number,
): Promise<Record<string, string>> {
  const results = await Promise.all(
    checks.map(async ({ name, check }) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), timeoutMs);
      });
      try {
        const problem = await Promise.race([Promise.resolve().then(check), late]);
        return [name, problem ?? 'ok'] as const;
      } catch (err) {
        return [name, err instanceof Error ? err.message : String(err)] as const;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return Object.fromEntries(results);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}
