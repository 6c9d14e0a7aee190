import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { HttpRoutes } from '../../../server/http-server.js';
import { reply } from '../replies.js';
import { SECURITY_HEADERS } from '../security-headers.js';

const require = createRequire(import.meta.url);
/** uPlot's own folder in node_modules: the charts are served by the bot, never from a CDN. */
const uplotDist = () => join(require.resolve('uplot/package.json'), '..', 'dist');

/** The admin page's files: URL path, where the file is, content type. */
function files(publicDir: string): [string, string, string][] {
  return [
    ['/admin', join(publicDir, 'admin.html'), 'text/html; charset=utf-8'],
    ['/admin.js', join(publicDir, 'admin.js'), 'text/javascript; charset=utf-8'],
    ...[
      'admin-sessions',
      'admin-dom',
      'admin-charts',
      'admin-run',
      'admin-run-approvals',
      'admin-evals',
      'admin-knowledge',
    ].map((name): [string, string, string] => [
      `/${name}.js`,
      join(publicDir, `${name}.js`),
      'text/javascript; charset=utf-8',
    ]),
    ['/admin.css', join(publicDir, 'admin.css'), 'text/css; charset=utf-8'],
    ['/uplot.js', join(uplotDist(), 'uPlot.iife.min.js'), 'text/javascript; charset=utf-8'],
    ['/uplot.css', join(uplotDist(), 'uPlot.min.css'), 'text/css; charset=utf-8'],
  ];
}

/**
 * Serves the admin page and its scripts (read once, now) to the requests `allowed` lets through. The page
 * itself holds no data: it asks the admin API, which checks who asks.
 */
export function mountAdminFiles(
  http: HttpRoutes,
  allowed: (req: IncomingMessage) => boolean,
  publicDir = join(import.meta.dirname, '..', 'public'),
): void {
  for (const [path, file, type] of files(publicDir)) {
    const body = readFileSync(file);
    http.mount('GET', path, (req, res) => {
      if (!allowed(req)) return reply(res, 403, { error: 'unknown host' });
      res.writeHead(200, {
        ...SECURITY_HEADERS,
        'content-type': type,
        'content-length': String(body.length),
        'cache-control': 'no-cache',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    });
  }
}
