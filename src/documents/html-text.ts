import type { ExtractedDocument } from './document-types.js';
import { textBudget } from './text-budget.js';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Decodes the named entities above and numeric ones; others stay as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** The text of an HTML fragment: block ends become line breaks, tags go, entities are decoded. */
function plain(html: string): string {
  return decodeEntities(
    html
      .replace(/<(br|hr)\b[^>]*>/gi, '\n')
      .replace(/<\/(p|div|li|tr|h[1-6]|pre|blockquote|section|article|table|ul|ol)>/gi, '\n')
      .replace(/<(td|th)\b[^>]*>/gi, '\t')
      .replace(/<li\b[^>]*>/gi, '- ')
      .replace(/<[^>]*>/g, ''),
  )
    .replace(/\t+/g, '\t')
    .replace(/[ \u00a0]+/g, ' ');
}

/**
 * An HTML page's text in sections, one per heading (`<h1>`–`<h6>`); scripts, styles, templates and comments
 * are left out. Reads at most `maxChars` characters.
 */
export function htmlText(html: string, maxChars: number): ExtractedDocument {
  const budget = textBudget(maxChars);
  const body = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(script|style|template|noscript|svg|head)\b[\s\S]*?<\/\1\s*>/gi, '');
  const parts = body.split(/(<h[1-6]\b[^>]*>[\s\S]*?<\/h[1-6]\s*>)/i);
  let heading: string | undefined;
  for (const part of parts) {
    const title = /^<h[1-6]\b[^>]*>([\s\S]*?)<\/h[1-6]\s*>$/i.exec(part);
    if (title) {
      heading = plain(title[1]!).replace(/\s+/g, ' ').trim() || heading;
      continue;
    }
    if (!budget.add({ heading, text: plain(part) })) break;
  }
  return budget.done();
}
