import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Tool } from '../../../src/core/tools/define-tool.js';
import { wikipediaTool } from '../../../src/core/tools/wikipedia.js';
import { type FakeArticle, startWikipediaFake } from '../../fakes/wikipedia.js';
import { testConfig } from '../../helpers/config.js';
import { type HttpFake, startHttpFake } from '../../helpers/http-fake.js';

const EINSTEIN: FakeArticle = {
  title: 'Albert Einstein',
  description: 'German-born physicist (1879–1955)',
  extract:
    'Albert Einstein was a German-born theoretical physicist who is best known for developing the theory of relativity.',
};
const EINSTEIN_FAMILY: FakeArticle = {
  title: 'Einstein family',
  extract: 'The Einstein family is the family of physicist Albert Einstein.',
};

let fake: HttpFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function toolFor(server: HttpFake, env: Record<string, string> = {}): Tool<{ query: string }> {
  return wikipediaTool(testConfig({ WIKIPEDIA_API_URL: server.url, ...env })) as Tool<{ query: string }>;
}
const lookUp = (tool: Tool<{ query: string }>, query: string, signal = new AbortController().signal) =>
  tool.execute({ query }, { signal });

describe('wikipedia', () => {
  it("returns the best match's title, description, summary and URL, and names the other matches", async () => {
    fake = await startWikipediaFake([EINSTEIN, EINSTEIN_FAMILY]);
    expect(await lookUp(toolFor(fake), 'Einstein')).toBe(
      'Albert Einstein (German-born physicist (1879–1955))\n' +
        `${EINSTEIN.extract}\n` +
        'https://en.wikipedia.org/wiki/Albert_Einstein\n' +
        'Other matches: Einstein family',
    );
  });

  it('searches, then fetches the summary of the first hit, with a descriptive User-Agent', async () => {
    fake = await startWikipediaFake([EINSTEIN]);
    await lookUp(toolFor(fake), 'albert einstein');
    const [search, summary] = fake.requests;
    expect(search?.url.pathname).toBe('/w/api.php');
    expect(Object.fromEntries(search!.url.searchParams)).toEqual({
      action: 'query',
      list: 'search',
      srsearch: 'albert einstein',
      format: 'json',
      srlimit: '5',
    });
    expect(summary?.url.pathname).toBe('/api/rest_v1/page/summary/Albert_Einstein');
    for (const request of fake.requests)
      expect(request.headers['user-agent']).toMatch(/^thinkthread\/\S+ \(.+\)/);
  });

  it('fills the language into the base URL template', async () => {
    fake = await startWikipediaFake([EINSTEIN]);
    await lookUp(
      toolFor(fake, { WIKIPEDIA_API_URL: `${fake.url}/{lang}`, WIKIPEDIA_LANG: 'de' }),
      'Einstein',
    );
    expect(fake.requests.map((r) => r.url.pathname)).toEqual([
      '/de/w/api.php',
      '/de/api/rest_v1/page/summary/Albert_Einstein',
    ]);
  });

  it('escapes titles that contain a slash', async () => {
    fake = await startWikipediaFake([{ title: 'AC/DC', extract: 'AC/DC are an Australian rock band.' }]);
    expect(await lookUp(toolFor(fake), 'AC/DC')).toContain('AC/DC are an Australian rock band.');
    expect(fake.requests[1]?.url.pathname).toBe('/api/rest_v1/page/summary/AC%2FDC');
  });

  it('says when nothing matches, passing on the search suggestion', async () => {
    fake = await startWikipediaFake([EINSTEIN], { suggestion: 'einstein' });
    expect(await lookUp(toolFor(fake), 'einstien')).toBe(
      'No Wikipedia article matches "einstien". Did you mean "einstein"?',
    );
    expect(fake.requests).toHaveLength(1);
  });

  it('flags a disambiguation page', async () => {
    fake = await startWikipediaFake([
      {
        title: 'Mercury',
        type: 'disambiguation',
        extract: 'Mercury may refer to a planet, an element or a god.',
      },
    ]);
    expect(await lookUp(toolFor(fake), 'Mercury')).toContain(
      'This is a disambiguation page; refine the query.',
    );
  });

  it('keeps a long summary bounded', async () => {
    fake = await startWikipediaFake([{ title: 'Long', extract: 'word '.repeat(5000) }]);
    const text = await lookUp(toolFor(fake), 'Long');
    expect(text.length).toBeLessThan(2200);
    expect(text).toContain('…\nhttps://en.wikipedia.org/wiki/Long');
  });

  it('reports an API error returned with status 200', async () => {
    fake = await startHttpFake(() => ({
      error: { code: 'srsearch-text-disabled', info: 'Full text search is disabled.' },
    }));
    await expect(lookUp(toolFor(fake), 'x')).rejects.toThrow(
      'Wikipedia search failed: Full text search is disabled.',
    );
  });

  it('reports a service error briefly', async () => {
    fake = await startHttpFake((_req, res) => {
      res.writeHead(503, { 'content-type': 'text/html' });
      res.end('<html><body>Our servers are currently under maintenance</body></html>');
    });
    await expect(lookUp(toolFor(fake), 'Einstein')).rejects.toThrow('Wikipedia answered HTTP 503.');
  });

  it('reports a malformed answer', async () => {
    fake = await startHttpFake((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('<!DOCTYPE html>');
    });
    await expect(lookUp(toolFor(fake), 'Einstein')).rejects.toThrow(
      'Wikipedia sent a response that is not valid JSON.',
    );
  });

  it('gives up as soon as the signal aborts', async () => {
    fake = await startHttpFake(() => new Promise(() => {}));
    const controller = new AbortController();
    const pending = lookUp(toolFor(fake), 'Einstein', controller.signal);
    await vi.waitFor(() => expect(fake?.requests).toHaveLength(1));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});
