import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The most lines a source file may have: what one person reads in one sitting. */
const MAX_LINES = 400;

/** Every TypeScript source and page script under `dir`, with forward slashes. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|js)$/.test(entry.name) ? [path.split('\\').join('/')] : [];
  });
}

/** Lines as an editor numbers them: a final newline does not start one more. */
function lineCount(file: string): number {
  const text = readFileSync(file, 'utf8');
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

describe('source file size', () => {
  const files = sources('src');

  it('finds the sources and the pages’ scripts', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.endsWith('.js'))).toBe(true);
  });

  it(`keeps every file under src/ within ${MAX_LINES} lines`, () => {
    const over = files
      .map((file) => ({ file, lines: lineCount(file) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(over).toEqual([]);
  });
});
