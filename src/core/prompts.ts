import { readdirSync, readFileSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { ThinkthreadError } from './errors.js';

/** The prompt templates by file name without extension (e.g. `system-tools`), loaded once. */
export type PromptSet = Readonly<Record<string, string>>;

/** Reads every `.md`/`.txt` file in `dir`; fails loudly when the folder is missing. */
export function loadPrompts(dir: string): PromptSet {
  const root = resolve(dir);
  let names: string[];
  try {
    names = readdirSync(root).filter((n) => ['.md', '.txt'].includes(extname(n)));
  } catch (err) {
    throw new ThinkthreadError('config', `Cannot read the prompts folder ${root} (PROMPTS_DIR).`, {
      cause: err,
    });
  }
  const prompts: Record<string, string> = {};
  for (const name of names) prompts[basename(name, extname(name))] = readFileSync(join(root, name), 'utf8');
  return prompts;
}

/** Returns the named template or throws naming the missing file. */
export function getPrompt(prompts: PromptSet, name: string): string {
  const template = prompts[name];
  if (template === undefined) {
    throw new ThinkthreadError('config', `Prompt "${name}" is missing: add prompts/${name}.md.`);
  }
  return template;
}

/**
 * Replaces `{name}` placeholders with `values[name]`; `{{` and `}}` stand for literal braces.
 * An unknown placeholder throws, so a typo in a prompt file fails loudly instead of reaching the model.
 */
export function renderPrompt(
  template: string,
  values: Readonly<Record<string, string>>,
  name = 'prompt',
): string {
  return template.replace(/\{\{|\}\}|\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g, (match, key: string | undefined) => {
    if (match === '{{') return '{';
    if (match === '}}') return '}';
    const value = key === undefined ? undefined : values[key];
    if (value === undefined) {
      throw new ThinkthreadError(
        'config',
        `Unknown placeholder {${key}} in ${name}; known: ${Object.keys(values)
          .map((k) => `{${k}}`)
          .join(', ')}.`,
      );
    }
    return value;
  });
}
