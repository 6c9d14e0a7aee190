/**
 * Turns the model's words into search terms both stores can use safely. A term is a run of letters and
 * digits, optionally joined by `-`, `_`, `.`, `:` or `/` (so `ERR_CONN-42`, `parse.ts` and `v2.1` stay
 * whole); everything else (quotes, `*`, parentheses, `NEAR`, `OR`, `-` prefixes) is a separator, so no
 * query syntax of FTS5 or Postgres ever reaches the engine.
 */

/** Characters of a query looked at; the rest of a 10 KB query is ignored. */
export const MAX_QUERY_CHARS = 2000;
/** Terms searched at most; more make every search slower and rank no better. */
export const MAX_TERMS = 12;

const TERM = /[\p{L}\p{N}]+(?:[-_.:/][\p{L}\p{N}]+)*/gu;

// Words that carry no meaning in a search; a question's filler ("what did we decide about …").
const STOPWORDS = new Set(
  (
    'a about after again all also am an and any are as at be been before being but by can could did do does ' +
    'done for from had has have he her here hers him his how i if in into is it its just last me more most my ' +
    'no not now of on one or our ours out over said say says she should so some such than that the their them ' +
    'then there these they this those to too up us very was we were what when where which while who whom why ' +
    'will with would you your yours near ago week month year yesterday today tell remember recall asked ask ' +
    'decide decided discussed talk talked mentioned someone something thing things'
  ).split(' '),
);

/** The distinct terms of `query`, lower-cased, without stop words, in the order given, at most MAX_TERMS. */
export function searchTerms(query: string): string[] {
  const terms: string[] = [];
  for (const match of query.slice(0, MAX_QUERY_CHARS).toLowerCase().matchAll(TERM)) {
    const term = match[0];
    if (STOPWORDS.has(term) || terms.includes(term)) continue;
    terms.push(term);
    if (terms.length === MAX_TERMS) break;
  }
  return terms;
}

/**
 * A term's stem for substring search (the SQLite trigram index): common English endings dropped, so
 * `deployed` finds `deploys` and `deployment`, `tuesdays` finds `Tuesday`. Identifiers (digits, `_`, `-`)
 * are kept as they are.
 */
export function substringStem(term: string): string {
  if (/[\d_\-.:/]/.test(term)) return term;
  for (const ending of ['ations', 'ation', 'ments', 'ment', 'ings', 'ing', 'ies', 'ed', 'es', 's', 'ly']) {
    if (term.endsWith(ending) && term.length - ending.length >= 4) return term.slice(0, -ending.length);
  }
  return term;
}

/** The plain words of a term (letters and digits only), as Postgres' text search wants them. */
export function termWords(term: string): string[] {
  return term.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
}

/**
 * Whether a term looks like code or an id (digits, `_`, inner punctuation) or is long enough to be part of
 * one (`connreset` in `ECONNRESET`): substring search helps it, and such terms are rare enough to be cheap.
 */
export function isIdentifierLike(term: string): boolean {
  return term.length >= 8 || (/[\d_\-.:/]/.test(term) && term.length >= 3);
}
