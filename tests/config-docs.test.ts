import { readFileSync } from 'node:fs';
import dotenv from 'dotenv';
import { describe, expect, it } from 'vitest';
import { configDocuments } from '../scripts/docs-config/config-documents.js';
import { settingsReference } from '../scripts/docs-config/settings-reference.js';
import { SETTING_GROUPS } from '../src/config/schema.js';
import { CONFIG_KEYS, parseConfig } from '../src/config.js';

const example = readFileSync('.env.example', 'utf8');
const reference = readFileSync('docs/configuration.md', 'utf8');
const base = { OPENAI_API_KEY: 'sk-test-key-123456' };

describe('configuration documents', () => {
  it.each(Object.entries(configDocuments()))('%s is what npm run docs:config writes', (file, text) => {
    expect(readFileSync(file, 'utf8'), `${file} is stale: run npm run docs:config`).toBe(text);
  });

  it('describes every setting, each in one group', () => {
    const documented = settingsReference(SETTING_GROUPS).flatMap((group) => group.settings);
    expect(documented.map((setting) => setting.key).sort()).toEqual([...CONFIG_KEYS].sort());
    for (const setting of documented) expect(setting.description.length, setting.key).toBeGreaterThan(10);
  });

  it("the settings reference's tables list every setting, and only those", () => {
    const listed = [...reference.matchAll(/^\| `([A-Z][A-Z0-9_]*)` +\|/gm)].map((m) => m[1]!);
    expect(listed.sort()).toEqual([...CONFIG_KEYS].sort());
  });

  it('.env.example names every setting once, and only those', () => {
    const named = [...example.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
    expect(named.sort()).toEqual([...CONFIG_KEYS].sort());
  });

  it('copying .env.example to .env changes no setting', () => {
    const copied = { ...dotenv.parse(example), ...base };
    expect(parseConfig(copied)).toEqual(parseConfig(base));
  });

  it('every value .env.example shows in a comment is the default', () => {
    const shown = Object.fromEntries(
      [...example.matchAll(/^# ([A-Z][A-Z0-9_]*)=(.+)$/gm)].map((m) => [m[1]!, m[2]!.trim()]),
    );
    expect(Object.keys(shown).length).toBeGreaterThan(60);
    expect(parseConfig({ ...shown, ...base })).toEqual(parseConfig(base));
  });
});
