import { afterEach, describe, expect, it } from 'vitest';
import { downloadAttachment } from '../../../src/platforms/shared/download-attachment.js';
import { type HttpFake, startHttpFake } from '../../helpers/http-fake.js';

describe('downloading an attached file', () => {
  let server: HttpFake | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('names a failed download and why, without throwing', async () => {
    server = await startHttpFake((_, res) => void res.writeHead(404).end());
    const file = { name: 'a.txt', mediaType: 'text/plain', size: 10, url: `${server.url}/a.txt` };
    expect(await downloadAttachment(file, { maxBytes: 1000 })).toMatchObject({
      kind: 'skipped',
      note: 'could not be downloaded (HTTP 404)',
    });
  });

  it('gives up after the timeout', async () => {
    server = await startHttpFake(() => new Promise(() => {}));
    const file = { name: 'slow.txt', size: 10, url: `${server.url}/slow.txt` };
    expect(await downloadAttachment(file, { maxBytes: 1000, timeoutMs: 200 })).toMatchObject({
      kind: 'skipped',
      note: 'the download timed out',
    });
  });

  it('takes a sign-in page for a refusal', async () => {
    server = await startHttpFake((_, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Sign in</html>');
    });
    const file = { name: 'notes.md', size: 10, url: `${server.url}/notes.md` };
    expect(await downloadAttachment(file, { maxBytes: 1000 })).toMatchObject({
      kind: 'skipped',
      note: 'could not be downloaded (the bot may lack the permission to read files)',
    });
  });

  it('does not fetch an image said to be over 5 MB, nor a file of unknown type', async () => {
    server = await startHttpFake(() => ({}));
    const big = { name: 'photo.jpg', mediaType: 'image/jpeg', size: 6_000_000, url: `${server.url}/p` };
    expect(await downloadAttachment(big, { maxBytes: 1000 })).toMatchObject({
      kind: 'skipped',
      note: 'images over 5 MB are not read',
    });
    const binary = { name: 'app.exe', size: 10, url: `${server.url}/app.exe` };
    expect(await downloadAttachment(binary, { maxBytes: 1000 })).toMatchObject({
      kind: 'skipped',
      mediaType: 'unknown type',
      note: 'binary or unknown type, not read',
    });
    expect(server.requests).toEqual([]);
  });

  it('reads source code whatever type the platform guessed, and skips text with NUL bytes', async () => {
    server = await startHttpFake((req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp2t' });
      res.end(req.url.pathname === '/main.ts' ? 'export const x = 1;\n' : 'abc\0def');
    });
    const code = { name: 'main.ts', mediaType: 'video/mp2t', size: 20, url: `${server.url}/main.ts` };
    expect(await downloadAttachment(code, { maxBytes: 1000 })).toMatchObject({
      kind: 'text',
      mediaType: 'text/plain',
      text: 'export const x = 1;\n',
    });
    const odd = { name: 'data.log', size: 7, url: `${server.url}/data.log` };
    expect(await downloadAttachment(odd, { maxBytes: 1000 })).toMatchObject({
      kind: 'skipped',
      note: 'binary content, not read',
    });
  });
});
