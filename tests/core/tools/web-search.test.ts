import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Tool } from '../../../src/core/tools/define-tool.js';
import { webSearchTool } from '../../../src/core/tools/web-search.js';
import { startTavilyFake, type TavilyResult } from '../../fakes/tavily.js';
import { testConfig } from '../../helpers/config.js';
import { type HttpFake, startHttpFake } from '../../helpers/http-fake.js';

const KEY = 'tvly-test-0123456789abcdef';
const RESULTS: TavilyResult[] = [
  {
    title: 'Node.js 20 release notes',
    url: 'https://nodejs.org/en/blog/release/v20.0.0',
    content: 'Node.js 20 brings a stable test runner,\n  a permission model and V8 11.3.',
  },
  {
    title: 'Node.js — About',
    url: 'https://nodejs.org/en/about',
    content: 'Node.js is a JavaScript runtime.',
  },
];

let fake: HttpFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function toolFor(server: HttpFake, key = KEY): Tool<{ query: string }> {
  return webSearchTool(testConfig({ TAVILY_API_URL: server.url, TAVILY_API_KEY: key })) as Tool<{
    query: string;
  }>;
}
const search = (tool: Tool<{ query: string }>, query: string, signal = new AbortController().signal) =>
  tool.execute({ query }, { signal });

describe('web_search', () => {
  it('is not offered without a Tavily key', () => {
    expect(webSearchTool(testConfig({ TAVILY_API_KEY: undefined }))).toBeNull();
    expect(webSearchTool(testConfig({ TAVILY_API_KEY: '  ' }))).toBeNull();
  });

  it('lists numbered results with title, snippet and URL', async () => {
    fake = await startTavilyFake(KEY, RESULTS);
    expect(await search(toolFor(fake), 'node 20 features')).toBe(
      '1. Node.js 20 release notes\n' +
        '   Node.js 20 brings a stable test runner, a permission model and V8 11.3.\n' +
        '   https://nodejs.org/en/blog/release/v20.0.0\n' +
        '2. Node.js — About\n' +
        '   Node.js is a JavaScript runtime.\n' +
        '   https://nodejs.org/en/about',
    );
  });

  it('posts the query with the key as a Bearer token', async () => {
    fake = await startTavilyFake(KEY, RESULTS);
    await search(toolFor(fake), 'node 20 features');
    const [request] = fake.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url.pathname).toBe('/search');
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request?.body ?? '')).toEqual({ query: 'node 20 features', max_results: 5 });
  });

  it('keeps long snippets and many results bounded', async () => {
    const many = Array.from({ length: 8 }, (_, i) => ({
      title: `Result ${i + 1}`,
      url: `https://example.com/${i + 1}`,
      content: 'lorem ipsum '.repeat(200),
    }));
    fake = await startHttpFake(() => ({ results: many }));
    const text = await search(toolFor(fake), 'lorem');
    expect(text).toContain('5. Result 5');
    expect(text).not.toContain('6. Result 6');
    expect(text.length).toBeLessThan(2500);
  });

  it('says when there are no results', async () => {
    fake = await startTavilyFake(KEY, []);
    expect(await search(toolFor(fake), 'qwxzv')).toBe('No web results for "qwxzv".');
  });

  it('never shows the key, even when the service echoes it back', async () => {
    fake = await startTavilyFake('tvly-the-right-key', RESULTS);
    const error = (await search(toolFor(fake), 'anything').catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/^Tavily answered HTTP 401 \(check the API key\)/);
    expect(error.message).toContain('invalid API key [redacted]');
    expect(error.message).not.toContain(KEY);
    expect(error.stack ?? '').not.toContain(KEY);
  });

  it('reports a service error without the key', async () => {
    fake = await startHttpFake((req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: `internal error for ${req.headers.authorization}` }));
    });
    const error = (await search(toolFor(fake), 'anything').catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/^Tavily answered HTTP 500: /);
    expect(error.message).not.toContain(KEY);
  });

  it('reports a malformed answer', async () => {
    fake = await startHttpFake((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"results": nope}');
    });
    await expect(search(toolFor(fake), 'anything')).rejects.toThrow(
      'Tavily sent a response that is not valid JSON.',
    );
  });

  it('gives up as soon as the signal aborts', async () => {
    fake = await startHttpFake(() => new Promise(() => {}));
    const controller = new AbortController();
    const pending = search(toolFor(fake), 'anything', controller.signal);
    await vi.waitFor(() => expect(fake?.requests).toHaveLength(1));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});
