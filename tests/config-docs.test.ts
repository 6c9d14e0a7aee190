import { readFileSync } from 'node:fs';
import dotenv from 'dotenv';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS, parseConfig } from '../src/config.js';

const example = readFileSync('.env.example', 'utf8');
const readme = readFileSync('README.md', 'utf8');

/** Setting names the README's configuration table lists (a row may name several). */
function readmeTableKeys(): string[] {
  const section = readme.slice(
    readme.indexOf('## Configuration'),
    readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1),
  );
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!));
}

describe('configuration documents', () => {
  it('.env.example names every setting, and only those', () => {
    const named = [...example.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
    expect([...new Set(named)].sort()).toEqual([...CONFIG_KEYS].sort());
  });

  it('copying .env.example to .env changes no setting', () => {
    const base = { OPENAI_API_KEY: 'sk-test-key-123456' };
    const copied = { ...dotenv.parse(example), ...base };
    expect(parseConfig(copied)).toEqual(parseConfig(base));
  });

  it('every value .env.example shows in a comment is the default', () => {
    const shown = Object.fromEntries(
      [...example.matchAll(/^# ([A-Z][A-Z0-9_]*)=(.+)$/gm)].map((m) => [m[1]!, m[2]!.trim()]),
    );
    const base = { OPENAI_API_KEY: 'sk-test-key-123456' };
    expect(parseConfig({ ...shown, ...base })).toEqual(parseConfig(base));
  });

  it("the README's configuration table lists every setting, and only those", () => {
    expect([...new Set(readmeTableKeys())].sort()).toEqual([...CONFIG_KEYS].sort());
  });
});
