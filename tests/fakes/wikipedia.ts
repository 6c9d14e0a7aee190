import { type HttpFake, startHttpFake } from '../helpers/http-fake.js';

/** An article the fake Wikipedia knows. */
export interface FakeArticle {
  title: string;
  description?: string;
  extract: string;
  type?: 'standard' | 'disambiguation';
}

/** Options for {@link startWikipediaFake}. */
export interface WikipediaFakeOptions {
  /** Offered as `searchinfo.suggestion` ("did you mean") when a search finds nothing. */
  suggestion?: string;
}

/**
 * A fake of the MediaWiki search API and the REST summary endpoint. Paths are matched by suffix, so a
 * language prefix in the base URL (`{fake}/de/w/api.php`) works.
 */
export function startWikipediaFake(
  articles: FakeArticle[],
  options: WikipediaFakeOptions = {},
): Promise<HttpFake> {
  return startHttpFake((req, res) => {
    const path = req.url.pathname;
    if (path.endsWith('/w/api.php')) {
      const words = (req.url.searchParams.get('srsearch') ?? '').toLowerCase().split(/\s+/);
      const limit = Number(req.url.searchParams.get('srlimit') ?? 10);
      const hits = articles.filter((a) =>
        words.every((w) => `${a.title} ${a.extract}`.toLowerCase().includes(w)),
      );
      return {
        batchcomplete: '',
        continue: { sroffset: limit, continue: '-||' },
        query: {
          searchinfo: {
            totalhits: hits.length,
            ...(hits.length === 0 && options.suggestion ? { suggestion: options.suggestion } : {}),
          },
          search: hits.slice(0, limit).map((a, i) => ({
            ns: 0,
            title: a.title,
            pageid: 1000 + i,
            size: a.extract.length * 10,
            wordcount: a.extract.split(' ').length * 10,
            snippet: `<span class="searchmatch">${a.title}</span> …`,
            timestamp: '2024-05-30T12:00:00Z',
          })),
        },
      };
    }
    const marker = '/api/rest_v1/page/summary/';
    const at = path.indexOf(marker);
    if (at >= 0) {
      const title = decodeURIComponent(path.slice(at + marker.length)).replaceAll('_', ' ');
      const article = articles.find((a) => a.title === title);
      if (!article) {
        res.writeHead(404, { 'content-type': 'application/problem+json' });
        res.end(
          JSON.stringify({
            type: 'https://mediawiki.org/wiki/HyperSwitch/errors/not_found',
            title: 'Not found.',
          }),
        );
        return;
      }
      const slug = encodeURIComponent(article.title.replaceAll(' ', '_'));
      return {
        type: article.type ?? 'standard',
        title: article.title,
        displaytitle: `<span class="mw-page-title-main">${article.title}</span>`,
        namespace: { id: 0, text: '' },
        wikibase_item: 'Q937',
        titles: { canonical: slug, normalized: article.title, display: article.title },
        pageid: 736,
        lang: 'en',
        dir: 'ltr',
        revision: '1226000000',
        timestamp: '2024-05-30T12:00:00Z',
        description: article.description,
        description_source: 'local',
        content_urls: {
          desktop: {
            page: `https://en.wikipedia.org/wiki/${slug}`,
            revisions: `https://en.wikipedia.org/wiki/${slug}?action=history`,
          },
          mobile: { page: `https://en.m.wikipedia.org/wiki/${slug}` },
        },
        extract: article.extract,
        extract_html: `<p>${article.extract}</p>`,
      };
    }
    res.writeHead(404);
    res.end();
  });
}
