import { type DefaultTreeAdapterMap, parseFragment } from 'parse5';
import { describe, expect, it } from 'vitest';
import { escapeHtml, renderMarkdown } from '../../../src/platforms/web/public/markdown.js';

/** Every tag the renderer may produce; anything else in its output came from the text. */
const OWN_TAGS =
  /^<\/?(p|br|strong|em|del|code|pre|a|ul|ol|li|h[3-6]|hr|blockquote|table|thead|tbody|tr|th|td)[\s>]/;

function tagsIn(html: string): string[] {
  return [...html.matchAll(/<[^>]*>/g)].map((m) => m[0]);
}

describe('the web chat’s markdown: nothing from the model becomes markup', () => {
  const hostile = [
    '<script>alert(1)</script>',
    '<img src=x onerror="alert(1)">',
    '**<b onmouseover=alert(1)>bold</b>**',
    '[click](javascript:alert(1))',
    '[click](https://example.com/" onclick="alert(1))',
    '`<script>` and ```\n<iframe src=//evil>\n```',
    '<a href="https://ok">x</a> &lt;already escaped&gt;',
    '| <th> | b |\n|---|---|\n| <svg onload=alert(1)> | `<x>` |',
    '> <style>body{}</style>\n- <form><input></form>',
    '# <h1>head</h1>',
    'https://example.com/<script>',
    '\u00000\u0000 hole markers \u00001\u0000',
  ];

  it.each(hostile)('renders %j without any tag of its own', (text) => {
    const html = renderMarkdown(text);
    for (const tag of tagsIn(html)) expect(tag).toMatch(OWN_TAGS);
    for (const tag of tagsIn(html)) {
      const attributes = [...tag.matchAll(/\s([\w-]+)=/g)].map((m) => m[1]);
      for (const name of attributes) expect(['href', 'target', 'rel', 'data-lang']).toContain(name);
    }
    for (const [, href] of html.matchAll(/href="([^"]*)"/g)) expect(href).toMatch(/^(https?:|mailto:)/);
  });

  it('shows the hostile text as text', () => {
    expect(renderMarkdown('<script>alert(1)</script>')).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(renderMarkdown('<img src=x onerror="alert(1)">')).toContain(
      '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;',
    );
    expect(renderMarkdown('&lt;')).toBe('<p>&amp;lt;</p>');
  });

  it('escapes the five HTML characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});

type Element = DefaultTreeAdapterMap['element'];

/** Every element a browser would build from `html`, as parse5 (the HTML standard's parser) reads it. */
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

const anchor = (href: string, label: string) =>
  `<a href="${href}" target="_blank" rel="noopener noreferrer nofollow">${label}</a>`;

describe('the web chat’s markdown: a link never carries markup into another (issue 26)', () => {
  it('renders a markdown link after a bare URL as two links, with no attribute from the text', () => {
    const text = 'https://evil.example/[x](https://b.example/onmouseover=alert(1)//)';
    const html = renderMarkdown(text);
    expect(html).toBe(
      `<p>${anchor('https://evil.example/', 'https://evil.example/')}${anchor('https://b.example/onmouseover=alert(1)//', 'x')}</p>`,
    );
    const elements = elementsOf(html);
    expect(elements.map((e) => e.tagName)).toEqual(['p', 'a', 'a']);
    for (const a of elements.slice(1)) expect(a.attrs.map((x) => x.name)).toEqual(['href', 'target', 'rel']);
  });

  it.each([
    'https://evil.example/[x](https://b.example/onmouseover=alert//)',
    'https://evil.example/[x](https://b.example/ onmouseover=alert//)',
    '[y](https://a.example/[x](https://b.example/onmouseover=alert//))',
    'https://evil.example/`x`onmouseover=alert(1)//',
    '[y](https://a.example/`x`onmouseover=alert//)',
  ])('keeps %j to links whose only attributes are href, target and rel', (text) => {
    const elements = elementsOf(renderMarkdown(text));
    for (const e of elements) {
      if (e.tagName === 'a') expect(e.attrs.map((x) => x.name)).toEqual(['href', 'target', 'rel']);
      else expect(e.attrs).toEqual([]);
    }
    for (const e of elements.filter((e) => e.tagName === 'a')) {
      expect(e.attrs[0]!.value).toMatch(/^https?:\/\/[^<>"'\s]+$/);
    }
    expect(elements.some((e) => e.attrs.some((x) => x.name.startsWith('on')))).toBe(false);
  });

  it('ends a URL at a quote, so a link’s address never holds one', () => {
    expect(renderMarkdown(`see https://a.example/x"onclick=y and https://b.example/'z`)).toBe(
      `<p>see ${anchor('https://a.example/x', 'https://a.example/x')}&quot;onclick=y and ${anchor('https://b.example/', 'https://b.example/')}&#39;z</p>`,
    );
    expect(renderMarkdown('[c](https://a.example/"onclick="x)')).toBe(
      `<p>[c](${anchor('https://a.example/', 'https://a.example/')}&quot;onclick=&quot;x)</p>`,
    );
  });
});

describe('the web chat’s markdown subset', () => {
  it('renders emphasis, inline code and safe links', () => {
    expect(renderMarkdown('The result is **56877**, *exactly*; see `x * y` and ~~not~~ this.')).toBe(
      '<p>The result is <strong>56877</strong>, <em>exactly</em>; see <code>x * y</code> and <del>not</del> this.</p>',
    );
    expect(renderMarkdown('[docs](https://example.com/a?b=1&c=2)')).toBe(
      '<p><a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer nofollow">docs</a></p>',
    );
    expect(renderMarkdown('see https://example.com/x.')).toContain('<a href="https://example.com/x" ');
  });

  it('renders code blocks verbatim, with their language, even while still open mid-stream', () => {
    expect(renderMarkdown('```ts\nconst a = 1 < 2 && **b**;\n```')).toBe(
      '<pre data-lang="ts"><code>const a = 1 &lt; 2 &amp;&amp; **b**;</code></pre>',
    );
    expect(renderMarkdown('Here:\n```py\nprint(1)')).toBe(
      '<p>Here:</p>\n<pre data-lang="py"><code>print(1)</code></pre>',
    );
  });

  it('renders headings, lists, quotes, rules, tables and line breaks', () => {
    const html = renderMarkdown(
      '## Steps\n1. one\n2. two\n\n- a\n  continued\n- b\n\n> quoted\n\n---\n| x | y |\n|---|:-:|\n| 1 | 2 |\nline one\nline two',
    );
    expect(html).toBe(
      [
        '<h4>Steps</h4>',
        '<ol><li>one</li><li>two</li></ol>',
        '<ul><li>a continued</li><li>b</li></ul>',
        '<blockquote><p>quoted</p></blockquote>',
        '<hr>',
        '<table><thead><tr><th>x</th><th>y</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>',
        '<p>line one<br>line two</p>',
      ].join('\n'),
    );
  });
});
