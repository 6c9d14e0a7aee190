import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One file of the page, read once at start. */
export interface StaticFile {
  path: string;
  type: string;
  body: Buffer;
}

/** The page's files (in `public/`): URL path, file name, content type. */
const FILES = [
  ['/', 'index.html', 'text/html; charset=utf-8'],
  ['/app.css', 'app.css', 'text/css; charset=utf-8'],
  ['/app.js', 'app.js', 'text/javascript; charset=utf-8'],
  ['/markdown.js', 'markdown.js', 'text/javascript; charset=utf-8'],
  ['/favicon.svg', 'favicon.svg', 'image/svg+xml'],
] as const;

/** Reads the page's files from `dir` (default: `public/` beside this module). */
export function loadStaticFiles(dir = join(import.meta.dirname, 'public')): StaticFile[] {
  return FILES.map(([path, file, type]) => ({ path, type, body: readFileSync(join(dir, file)) }));
}
