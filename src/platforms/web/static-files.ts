import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { HttpRoutes } from '../../server/http-server.js';
import { reply } from './replies.js';
import { SECURITY_HEADERS } from './security-headers.js';

/** One file of the page, read once at start. */
export interface StaticFile {
  path: string;
  type: string;
  body: Buffer;
}

/** The page's files (in `public/`): URL path, file name, content type. */
const FILES = [
  ['/', 'index.html', 'text/html; charset=utf-8'],
  ['/theme.css', 'theme.css', 'text/css; charset=utf-8'],
  ['/app.css', 'app.css', 'text/css; charset=utf-8'],
  ['/app.js', 'app.js', 'text/javascript; charset=utf-8'],
  ...[
    'chat-dom',
    'chat-copy',
    'chat-approvals',
    'chat-log',
    'chat-history',
    'chat-session',
    'chat-attach',
  ].map((name) => [`/${name}.js`, `${name}.js`, 'text/javascript; charset=utf-8'] as const),
  ['/markdown.js', 'markdown.js', 'text/javascript; charset=utf-8'],
  ['/highlight.js', 'highlight.js', 'text/javascript; charset=utf-8'],
  ['/favicon.svg', 'favicon.svg', 'image/svg+xml'],
] as const;

/** Reads the page's files from `dir` (default: `public/` beside this module). */
export function loadStaticFiles(dir = join(import.meta.dirname, 'public')): StaticFile[] {
  return FILES.map(([path, file, type]) => ({ path, type, body: readFileSync(join(dir, file)) }));
}

/** Serves the page's files (read once, now) to the requests `allowed` lets through. */
export function mountStaticFiles(http: HttpRoutes, allowed: (req: IncomingMessage) => boolean): void {
  for (const file of loadStaticFiles()) {
    http.mount('GET', file.path, (req, res) => {
      if (!allowed(req)) return reply(res, 403, { error: 'unknown host' });
      res.writeHead(200, {
        ...SECURITY_HEADERS,
        'content-type': file.type,
        'content-length': String(file.body.length),
        'cache-control': 'no-cache',
      });
      res.end(req.method === 'HEAD' ? undefined : file.body);
    });
  }
}
