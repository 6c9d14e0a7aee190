import { z } from 'zod';
import { defineTool, type ToolFactory } from './define-tool.js';
import { fetchJson, joinUrl } from './http.js';

const MAX_RESULTS = 5;
const MAX_SNIPPET_CHARS = 400;

const answer = z.object({
  results: z.array(
    z.object({
      title: z.string().default(''),
      url: z.string(),
      content: z.string().nullish(),
    }),
  ),
});

/** What `web_search` reads from the configuration. */
export interface WebSearchSettings {
  /** Without it the tool is not offered. */
  TAVILY_API_KEY?: string | undefined;
  TAVILY_API_URL: string;
}

/** `web_search`: Tavily web search; not offered when TAVILY_API_KEY is unset. */
export const webSearchTool: ToolFactory<WebSearchSettings> = (settings) => {
  const key = settings.TAVILY_API_KEY;
  if (!key) return null;
  return defineTool({
    name: 'web_search',
    description:
      'Searches the web (Tavily) and returns the top results with title, snippet and URL. ' +
      'Use it for recent events and anything not in Wikipedia.',
    input: z.object({
      query: z
        .string()
        .trim()
        .min(1)
        .max(400)
        .describe('The search query, as you would type it into a search engine'),
    }),
    async execute({ query }, { signal }) {
      const { results } = await fetchJson(joinUrl(settings.TAVILY_API_URL, '/search'), answer, {
        service: 'Tavily',
        signal,
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: { query, max_results: MAX_RESULTS },
        secrets: [key],
      });
      if (results.length === 0) return `No web results for "${query}".`;
      return results
        .slice(0, MAX_RESULTS)
        .map((r, i) => `${i + 1}. ${r.title || r.url}\n   ${snippet(r.content ?? '')}\n   ${r.url}`)
        .join('\n');
    },
  });
};

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (!flat) return '(no snippet)';
  return flat.length <= MAX_SNIPPET_CHARS ? flat : `${flat.slice(0, MAX_SNIPPET_CHARS).trimEnd()}…`;
}
