/**
 * Sets the admin page writes: `evals/sets/<set>.jsonl` in the data folder, one case appended per line, read
 * by `npm run eval` along with the repository's `evals/`.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type EvalCase, evalCaseSchema, parseEvalSet } from './eval-case.js';

/** A set's name: what its file is called. */
export const SET_NAME_RE = /^[\w.-]{1,60}$/;

/** The folder of the sets the admin page writes, under `dataDir`. */
export function adminSetsDir(dataDir: string): string {
  return join(dataDir, 'evals', 'sets');
}

/** Appends `c` to set `set` in `dir`; false when the set already has a case of that id. */
export function appendCase(dir: string, set: string, c: EvalCase): boolean {
  if (!SET_NAME_RE.test(set)) throw new Error(`"${set}" is not a set name`);
  const file = join(dir, `${set}.jsonl`);
  const existing = existsSync(file) ? parseEvalSet(set, readFileSync(file, 'utf8'), file).cases : [];
  if (existing.some((e) => e.id === c.id)) return false;
  mkdirSync(dir, { recursive: true });
  appendFileSync(file, `${JSON.stringify(evalCaseSchema.parse(c))}\n`);
  return true;
}
