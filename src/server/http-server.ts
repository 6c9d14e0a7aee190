import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../core/logger.js';
import { isLoopback } from '../platforms/web/loopback.js';
import { hasBearer } from './bearer.js';

/** Handles one request on a mounted route. */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** How a route is exposed. */
export interface RouteOptions {
  /**
   * For operators only (e.g. `/metrics`): served as is on internal listeners (HEALTH_PORT, a loopback bind);
   * on a public one it needs `Authorization: Bearer <token>` (401 otherwise), or answers 404 when there is no
   * token.
   */
  internal?: { token?: string | undefined };
}

/** Where platforms mount the routes they receive requests on. */
export interface HttpRoutes {
  /** Serves `method path` (exact path) with `handler`; mounting the same route twice is a bug and throws. */
  mount(method: string, path: string, handler: RouteHandler, options?: RouteOptions): void;
}

/** How a listener is reached. */
export interface ListenOptions {
  /**
   * The operator's own port (HEALTH_PORT): internal routes and `/readyz`'s reasons are shown there. A
   * listener bound to a loopback host is internal anyway; any other is public.
   */
  internal?: boolean;
}

/** One readiness check: resolves to undefined when fine, else a short reason (no secrets). */
export interface ReadinessCheck {
  name: string;
  check(): Promise<string | undefined> | string | undefined;
}

/**
 * The process's one HTTP server: platform routes, `GET /healthz` and `GET /readyz` (on a public listener,
 * only ready or not ready), and internal routes such as `/metrics`.
 */
export interface HttpServer extends HttpRoutes {
  /**
   * Listens on `port` (0 picks a free one) and resolves with the port actually bound. Whether it is public
   * is decided by `host` and `options.internal`, never by who connects (a proxy's requests come from
   * loopback too).
   */
  listen(port: number, host?: string, options?: ListenOptions): Promise<number>;
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
  /** Paths of internal routes, with the token a public listener asks for (undefined: none, so 404). */
  const internal = new Map<string, string | undefined>();
  const servers: Server[] = [];
  /** The requests of public listeners; a WeakSet, so nothing outlives its request. */
  const publicRequests = new WeakSet<IncomingMessage>();

  const mount = (method: string, path: string, handler: RouteHandler, route?: RouteOptions) => {
    const key = `${method.toUpperCase()} ${path}`;
    if (routes.has(key)) throw new Error(`HTTP route ${key} is mounted twice`);
    routes.set(key, handler);
    paths.add(path);
    if (route?.internal) internal.set(path, route.internal.token || undefined);
  };

  mount('GET', '/healthz', (_req, res) => json(res, 200, { status: 'ok' }));
  mount('GET', '/readyz', async (req, res) => {
    const checks = await runChecks(options.readiness(), options.checkTimeoutMs ?? 2000);
    const failed = Object.entries(checks).filter(([, result]) => result !== 'ok');
    // Reasons name platforms, stores and their errors: for the operator, not for anyone on the internet.
    if (publicRequests.has(req))
      return json(res, failed.length ? 503 : 200, { status: failed.length ? 'not ready' : 'ready' });
    if (failed.length === 0) return json(res, 200, { status: 'ready', checks });
    const reason = failed.map(([name, result]) => `${name}: ${result}`).join('; ');
    json(res, 503, { status: 'not ready', reason, checks });
  });

  const handle = (req: IncomingMessage, res: ServerResponse, isPublic: boolean) => {
    let path: string;
    try {
      path = new URL(req.url ?? '/', 'http://localhost').pathname;
    } catch {
      return json(res, 400, { error: 'bad request' });
    }
    if (isPublic) {
      publicRequests.add(req);
      if (internal.has(path)) {
        const token = internal.get(path);
        // Without a token the route does not exist here, whatever the method.
        if (token === undefined) return json(res, 404, { error: 'not found' });
        if (!hasBearer(req, token)) {
          res.writeHead(401, {
            'content-type': 'application/json',
            'cache-control': 'no-store',
            'www-authenticate': 'Bearer',
          });
          return void res.end(JSON.stringify({ error: 'unauthorized' }));
        }
      }
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
    async listen(port, host, listenOptions) {
      const isPublic = !listenOptions?.internal && !(host !== undefined && isLoopback(host));
      const server = createServer((req, res) => handle(req, res, isPublic));
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
