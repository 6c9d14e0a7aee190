/**
 * An eval case (one line of `evals/<set>.jsonl`): a question, optional thread context and attached files, the
 * tool observations recorded for replays, and the checks its answer must pass.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { compileRegex } from './compile-regex.js';

const text = z.string().min(1);

function compiles(source: string): boolean {
  try {
    compileRegex(source);
    return true;
  } catch {
    return false;
  }
}

/** One tool call's recorded observation: given for `tool` (and, when set, only for this exact `input`). */
const recordedSchema = z.object({
  tool: text,
  input: z.unknown().optional(),
  output: z.string(),
});

const checksSchema = z
  .object({
    /** Substrings the answer must contain (case-insensitive). */
    contains: z.array(text).optional(),
    /** Substrings it must not contain (case-insensitive). */
    notContains: z.array(text).optional(),
    /** Regular expressions the answer must match: `pattern` or `/pattern/flags`. */
    regex: z.array(text.refine(compiles, 'not a valid regular expression')).optional(),
    /** A number the answer must state, within `tolerance` (absolute, 0 by default). */
    number: z.object({ value: z.number(), tolerance: z.number().min(0).default(0) }).optional(),
    /** Tools the run must call, and tools it must not. */
    calls: z.array(text).optional(),
    notCalls: z.array(text).optional(),
    /** Most model steps the run may take. */
    maxSteps: z.number().int().min(1).optional(),
    /** A rubric the named model grades the answer against (PASS or FAIL). */
    judge: z.object({ model: text, prompt: text }).optional(),
  })
  .strict();

/** The JSON form of one case. */
export const evalCaseSchema = z
  .object({
    id: z.string().regex(/^[\w.-]{1,80}$/, 'letters, digits, _ . - only, at most 80'),
    question: text,
    /** Earlier messages of the thread, oldest first. */
    context: z.array(z.object({ author: text, text: text })).optional(),
    /** Text files attached to the question. */
    attachments: z.array(z.object({ name: text, text: z.string() })).optional(),
    recorded: z.array(recordedSchema).optional(),
    checks: checksSchema,
    /** Where the case came from (a run's id, a 👎), for whoever reads the set. */
    source: z.string().optional(),
  })
  .strict();

/** One case, parsed. */
export type EvalCase = z.output<typeof evalCaseSchema>;
export type EvalChecks = EvalCase['checks'];
export type RecordedObservation = z.output<typeof recordedSchema>;

/** A set of cases: a file's name without `.jsonl`, and its cases. */
export interface EvalSet {
  name: string;
  cases: EvalCase[];
}

/** A set file could not be read; the message names the file and line. */
export class EvalSetError extends Error {}

/** Parses a set file's text; `file` names it in errors. Blank lines and lines starting with `//` are skipped. */
export function parseEvalSet(name: string, source: string, file = `${name}.jsonl`): EvalSet {
  const cases: EvalCase[] = [];
  const ids = new Set<string>();
  source.split('\n').forEach((line, i) => {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('//')) return;
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch (err) {
      throw new EvalSetError(`${file}:${i + 1}: not JSON (${(err as Error).message})`);
    }
    const parsed = evalCaseSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new EvalSetError(`${file}:${i + 1}: ${issue.path.join('.') || 'case'}: ${issue.message}`);
    }
    if (ids.has(parsed.data.id))
      throw new EvalSetError(`${file}:${i + 1}: id "${parsed.data.id}" is used twice`);
    ids.add(parsed.data.id);
    cases.push(parsed.data);
  });
  return { name, cases };
}

/** The names of the sets in `dir` (none when it does not exist). */
export function setNames(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => basename(f, '.jsonl'))
    .sort();
}

/**
 * The sets in `dirs` (every `*.jsonl` of each folder that exists), or only those named in `only`. A name in
 * two folders is refused, as is a folder list of which none exists.
 */
export function loadEvalSets(dirs: readonly string[], only: readonly string[] = []): EvalSet[] {
  if (!dirs.some((d) => existsSync(d))) throw new EvalSetError(`there is no folder ${dirs[0]} of eval sets`);
  const where = new Map<string, string>();
  for (const dir of dirs) {
    for (const name of setNames(dir)) {
      const other = where.get(name);
      if (other) throw new EvalSetError(`set ${name} is both in ${other} and in ${dir}`);
      where.set(name, dir);
    }
  }
  const names = [...where.keys()].sort();
  const missing = only.filter((n) => !where.has(n));
  if (missing.length > 0) {
    throw new EvalSetError(
      `no set ${missing.join(', ')} in ${dirs.join(' or ')} (there are: ${names.join(', ') || 'none'})`,
    );
  }
  return (only.length > 0 ? only : names).map((name) => {
    const file = join(where.get(name)!, `${name}.jsonl`);
    return parseEvalSet(name, readFileSync(file, 'utf8'), file);
  });
}
