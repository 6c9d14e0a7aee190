import { type HttpFake, startHttpFake } from '../helpers/http-fake.js';

/** One search result as Tavily returns it. */
export interface TavilyResult {
  title: string;
  url: string;
  content: string;
  score?: number;
}

/** A fake Tavily /search that checks the Bearer key; a wrong key gets a 401 that echoes it back. */
export function startTavilyFake(key: string, results: TavilyResult[]): Promise<HttpFake> {
  return startHttpFake((req, res) => {
    if (req.method !== 'POST' || req.url.pathname !== '/search') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: 'Not Found' }));
      return;
    }
    const given = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (given !== key) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: { error: `Unauthorized: invalid API key ${given}` } }));
      return;
    }
    const body = JSON.parse(req.body) as { query: string; max_results?: number };
    return {
      query: body.query,
      follow_up_questions: null,
      answer: null,
      images: [],
      results: results
        .slice(0, body.max_results ?? 5)
        .map((r, i) => ({ raw_content: null, score: 0.9 - i * 0.1, ...r })),
      response_time: 1.21,
      request_id: 'b1e0c1a2-0000-4000-8000-000000000000',
    };
  });
}
