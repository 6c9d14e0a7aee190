import fc from 'fast-check';
import { type DefaultTreeAdapterMap, parseFragment } from 'parse5';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../../src/platforms/web/public/markdown.js';

type Element = DefaultTreeAdapterMap['element'];

/** The elements the renderer writes, and the attributes each may carry. */
const ALLOWED: Record<string, readonly string[]> = {
  a: ['href', 'target', 'rel'],
  pre: ['data-lang'],
  ...Object.fromEntries(
    'p br strong em del code ul ol li h3 h4 h5 h6 hr blockquote table thead tbody tr th td'
      .split(' ')
      .map((tag) => [tag, []]),
  ),
};

/** Every element in `html` as a browser builds it (parse5 follows the HTML standard's parsing rules). */
function elementsOf(html: string): Element[] {
  const found: Element[] = [];
  const walk = (node: { childNodes?: unknown[] }) => {
    for (const child of (node.childNodes ?? []) as Element[]) {
      if ('tagName' in child) found.push(child);
      walk(child);
    }
  };
  walk(parseFragment(html));
  return found;
}

/** All text a reader sees, and the addresses and code languages that stand in for text they replace. */
function shownText(html: string): string {
  const parts: string[] = [];
  const walk = (node: { childNodes?: unknown[] }) => {
    for (const child of (node.childNodes ?? []) as (Element & { value?: string })[]) {
      if (child.nodeName === '#text') parts.push(child.value ?? '');
      for (const attr of child.attrs ?? [])
        if (attr.name === 'href' || attr.name === 'data-lang') parts.push(attr.value);
      walk(child);
    }
  };
  walk(parseFragment(html));
  return parts.join(' ');
}

/** How many times each ASCII letter occurs: markdown syntax is never a letter, so none may go missing. */
function letterCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const ch of text.match(/[a-z]/gi) ?? []) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  return counts;
}

const FRAGMENTS = [
  '[',
  ']',
  '](',
  '(',
  ')',
  'http://',
  'https://',
  'mailto:',
  'javascript:',
  'https://a.example/',
  'b.example',
  '"',
  "'",
  '<',
  '>',
  '=',
  'onmouseover=',
  'alert(1)',
  '//',
  '`',
  '```',
  '*',
  '**',
  '_',
  '~~',
  '\n',
  '&',
  '&quot;',
  ' ',
  '|',
  '# ',
  '- ',
  '1. ',
  '> ',
  '\u0000',
  '\u00000\u0000',
];

/** Adversarial markdown: fragments of links, URLs, quotes and markers, mixed with random text. */
const hostileMarkdown = fc
  .array(
    fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...FRAGMENTS) }, { weight: 1, arbitrary: fc.string() }),
    {
      maxLength: 40,
    },
  )
  .map((parts) => parts.join(''));

/** Checks what a browser would make of the renderer's HTML for `text`; throws on the first problem. */
function checkRendering(text: string): void {
  const html = renderMarkdown(text);
  const elements = elementsOf(html);
  for (const element of elements) {
    const allowed = ALLOWED[element.tagName];
    expect(allowed, `<${element.tagName}> in ${html}`).toBeDefined();
    for (const attr of element.attrs) {
      expect(attr.name.startsWith('on'), `${attr.name} in ${html}`).toBe(false);
      expect(allowed, `${attr.name} on <${element.tagName}> in ${html}`).toContain(attr.name);
    }
    if (element.tagName === 'a') {
      expect(element.attrs.map((a) => a.name)).toEqual(['href', 'target', 'rel']);
      expect(element.attrs[0]!.value).toMatch(/^(https?:\/\/|mailto:)[^<"']+$/);
    }
  }
  // Letters outside fences' info strings (which only name the language; a fence may open inside a quote)
  // all reach the reader.
  const source = text.replace(/\u0000/g, '').replace(/^((?:\s*>)*\s*(?:`{3,}|~{3,})).*$/gm, '$1');
  const shown = letterCounts(shownText(html));
  for (const [letter, count] of letterCounts(source)) {
    expect(
      shown.get(letter) ?? 0,
      `"${letter}" lost from ${JSON.stringify(text)}: ${html}`,
    ).toBeGreaterThanOrEqual(count);
  }
}

describe('the web chat’s markdown on random and hostile text (issue 26)', () => {
  it('builds only its own elements, links only to web and mail addresses, and hides no letter', () => {
    fc.assert(
      fc.property(hostileMarkdown, (text) => checkRendering(text)),
      { numRuns: 2_000 },
    );
  });

  it('does the same for any text at all', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => checkRendering(text)),
      {
        numRuns: 1_000,
      },
    );
  });

  it('holds for the reported attack', () => {
    checkRendering('https://evil.example/[x](https://b.example/onmouseover=alert(1)//)');
  });
});
