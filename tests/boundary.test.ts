import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONSOLE_PLATFORM, PLATFORMS } from '../src/platforms/registry.js';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const imports = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!);

describe('architecture boundaries', () => {
  const coreFiles = sources('src/core');
  // The registry is the list of platforms; the terminal chat is the fallback when none is enabled.
  const platformNames = [...PLATFORMS.map((p) => p.name), CONSOLE_PLATFORM];

  it('finds a folder for every registered platform', () => {
    const folders = readdirSync('src/platforms', { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'shared')
      .map((entry) => entry.name);
    expect(folders.sort()).toEqual([...platformNames].sort());
  });

  it('finds the core sources', () => {
    expect(coreFiles.length).toBeGreaterThan(10);
  });

  it('keeps the core free of any chat platform', () => {
    const offenders = coreFiles.flatMap((file) =>
      imports(file)
        .filter(
          (spec) =>
            // A platform's folder or module by name (`web-search.js` is a tool, not the `web` platform).
            spec
              .toLowerCase()
              .split('/')
              .some((part) => platformNames.includes(part.replace(/\.[jt]s$/, ''))) ||
            /discord\.js|@slack\/|(^|\/)(platforms|server)\//.test(spec),
        )
        .map((spec) => `${file} imports ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps the core free of the configuration and of any store implementation', () => {
    const config = resolve('src/config.ts');
    const configFolder = resolve('src/config');
    const store = resolve('src/store');
    const offenders = coreFiles.flatMap((file) =>
      imports(file)
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => resolve(dirname(file), spec).replace(/\.js$/, '.ts'))
        .filter(
          (target) =>
            target === config || target.startsWith(`${configFolder}/`) || target.startsWith(`${store}/`),
        )
        .map((target) => `${file} imports ${target}`),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps platform adapters from reaching into each other', () => {
    // Files directly in src/platforms/ compose the adapters; those inside a platform's folder must not mix.
    const adapterFiles = sources('src/platforms').filter((file) => file.split('/').length > 3);
    const offenders = adapterFiles.flatMap((file) => {
      const own = file.split('/')[2];
      return imports(file)
        .filter((spec) => platformNames.some((p) => p !== own && spec.includes(`/${p}/`)))
        .map((spec) => `${file} imports ${spec}`);
    });
    expect(offenders).toEqual([]);
  });
});
