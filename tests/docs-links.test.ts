import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const readme = readFileSync('README.md', 'utf8');
const docs = readdirSync('docs')
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);

/** The text outside fenced code blocks. */
const prose = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');

/** Every link and image target of a Markdown file: `[text](target)`. */
const targets = (markdown: string) =>
  [...prose(markdown).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/.test(t));

/** The anchors GitHub gives a file's headings (a repeated heading gets -1, -2, …). */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = heading!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replaceAll(' ', '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

describe('the README and docs/', () => {
  it('keeps the README to 300 lines', () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(300);
  });

  it('links every docs/ page from the README', () => {
    const linked = new Set(targets(readme).map((target) => target.split('#')[0]));
    expect(docs.filter((page) => !linked.has(page))).toEqual([]);
  });

  it('has no broken relative link or anchor in the README or any docs/ page', () => {
    const broken: string[] = [];
    for (const file of ['README.md', ...docs]) {
      const text = readFileSync(file, 'utf8');
      for (const target of targets(text)) {
        const [path = '', anchor] = target.split('#');
        const resolved = path ? normalize(join(dirname(file), decodeURIComponent(path))) : file;
        if (!existsSync(resolved)) broken.push(`${file}: ${target} (no ${resolved})`);
        else if (
          anchor &&
          resolved.endsWith('.md') &&
          !anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)
        ) {
          broken.push(`${file}: ${target} (no heading #${anchor} in ${resolved})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
