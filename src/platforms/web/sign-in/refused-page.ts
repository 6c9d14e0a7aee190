import type { ServerResponse } from 'node:http';
import { SECURITY_HEADERS } from '../security-headers.js';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** Answers 403 with a small page saying why a sign-in was refused (`why` names the workspace or server). */
export function refusedPage(res: ServerResponse, why: string, home: URL, cookies: string[]): void {
  res.writeHead(403, {
    ...SECURITY_HEADERS,
    'cache-control': 'no-store',
    'content-type': 'text/html; charset=utf-8',
    'set-cookie': cookies,
  });
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not signed in</title>` +
      `<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="${escapeHtml(new URL('theme.css', home).pathname)}"></head>` +
      `<body><main><h1>Not signed in</h1><p id="why">${escapeHtml(why)}</p>` +
      `<p><a href="${escapeHtml(home.pathname)}">Back to the chat</a></p></main></body></html>`,
  );
}
