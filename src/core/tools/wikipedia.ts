import { z } from 'zod';
import { defineTool, type ToolFactory } from './define-tool.js';
import { fetchJson, joinUrl, ServiceError } from './http.js';

const MAX_EXTRACT_CHARS = 2000;

const search = z.object({
  error: z.object({ info: z.string() }).optional(),
  query: z
    .object({
      searchinfo: z.object({ suggestion: z.string().optional() }).optional(),
      search: z.array(z.object({ title: z.string() })),
    })
    .optional(),
});

const summary = z.object({
  type: z.string().optional(),
  title: z.string(),
  description: z.string().optional(),
  extract: z.string().default(''),
  content_urls: z.object({ desktop: z.object({ page: z.string() }) }).optional(),
});

/** What `wikipedia` reads from the configuration. */
export interface WikipediaSettings {
  /** The API's base URL; `{lang}` in it is replaced by `WIKIPEDIA_LANG`. */
  WIKIPEDIA_API_URL: string;
  WIKIPEDIA_LANG: string;
}

/** `wikipedia`: searches Wikipedia and returns the best page's summary and URL. */
export const wikipediaTool: ToolFactory<WikipediaSettings> = (settings) => {
  const base = settings.WIKIPEDIA_API_URL.replaceAll('{lang}', settings.WIKIPEDIA_LANG);
  return defineTool({
    name: 'wikipedia',
    description:
      'Searches Wikipedia and returns the summary of the best matching article with its URL, plus the ' +
      'titles of other matches. Good for facts about people, places, things and events.',
    input: z.object({
      query: z
        .string()
        .trim()
        .min(1)
        .max(300)
        .describe('What to look up, e.g. an article title or a few keywords'),
    }),
    async execute({ query }, { signal }) {
      const found = await fetchJson(
        joinUrl(base, '/w/api.php', {
          action: 'query',
          list: 'search',
          srsearch: query,
          format: 'json',
          srlimit: 5,
        }),
        search,
        { service: 'Wikipedia', signal },
      );
      if (found.error) throw new ServiceError(`Wikipedia search failed: ${found.error.info}`);
      const titles = found.query?.search.map((hit) => hit.title) ?? [];
      const [best, ...others] = titles;
      if (!best) {
        const suggestion = found.query?.searchinfo?.suggestion;
        return `No Wikipedia article matches "${query}".${suggestion ? ` Did you mean "${suggestion}"?` : ''}`;
      }

      const slug = encodeURIComponent(best.replaceAll(' ', '_'));
      const page = await fetchJson(joinUrl(base, `/api/rest_v1/page/summary/${slug}`), summary, {
        service: 'Wikipedia',
        signal,
      });
      const heading = page.description ? `${page.title} (${page.description})` : page.title;
      const note = page.type === 'disambiguation' ? 'This is a disambiguation page; refine the query.\n' : '';
      const url = page.content_urls?.desktop.page ?? joinUrl(base, `/wiki/${slug}`).href;
      const more = others.length > 0 ? `\nOther matches: ${others.join('; ')}` : '';
      return `${heading}\n${note}${cut(page.extract.trim(), MAX_EXTRACT_CHARS)}\n${url}${more}`;
    },
  });
};

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max).trimEnd()}…`;
}
