/**
 * Where eval runs are kept: one JSON line per run in `evals/runs.jsonl` under the data folder (the SQLite
 * database's folder, or ./data), read back to say what changed since the last comparable run and to draw the
 * trend on the admin page.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { sqlitePathOf } from '../store/create-store.js';
import { SQLITE_MEMORY_PATH } from '../store/sqlite/sqlite-paths.js';
import type { CaseResult } from './run-case.js';

/** One case of a kept run: how it went, without the tokens (the run keeps their total). */
export type KeptCase = Omit<CaseResult, 'spent'>;

/** One kept run: what was run, how it went, and each case. */
export interface EvalRunRecord {
  /** Milliseconds since the epoch when the run ended. */
  at: number;
  sets: string[];
  model: string;
  protocol: 'react' | 'tools';
  recorded: boolean;
  passed: number;
  total: number;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  /** US dollars, when the prices are configured. */
  costUsd?: number | undefined;
  p50Ms: number;
  p95Ms: number;
  cases: KeptCase[];
}

/** The data folder: the SQLite database's folder, or ./data (Postgres, or a database in memory). */
export function dataDirOf(databaseUrl: string, cwd = process.cwd()): string {
  if (/^\s*sqlite:/i.test(databaseUrl)) {
    const path = sqlitePathOf(databaseUrl, cwd);
    if (path !== SQLITE_MEMORY_PATH) return dirname(path);
  }
  return resolve(cwd, 'data');
}

/** The file eval runs are kept in, under `dataDir`. */
export function historyFile(dataDir: string): string {
  return join(dataDir, 'evals', 'runs.jsonl');
}

/** Every kept run, oldest first; lines that do not parse (a run cut while writing) are skipped. */
export function readHistory(file: string): EvalRunRecord[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      if (!line.trim()) return [];
      try {
        return [JSON.parse(line) as EvalRunRecord];
      } catch {
        return [];
      }
    });
}

/** Keeps `run` (appends it to `file`, creating the folder). */
export function keepRun(file: string, run: EvalRunRecord): void {
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, `${JSON.stringify(run)}\n`);
}

/** The latest kept run like `run`: same model, protocol and replay mode, sharing a set with it. */
export function previousRun(
  history: readonly EvalRunRecord[],
  run: EvalRunRecord,
): EvalRunRecord | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const h = history[i]!;
    if (
      h.model === run.model &&
      h.protocol === run.protocol &&
      h.recorded === run.recorded &&
      h.sets.some((s) => run.sets.includes(s))
    )
      return h;
  }
  return undefined;
}

/** What changed between two runs: cases that fail now and passed then, pass now and failed then, are new. */
export interface RunChanges {
  newFailures: string[];
  fixed: string[];
  added: string[];
}

/** Compares `run` with `before`, case by case (`set/id`). */
export function changesSince(before: EvalRunRecord, run: EvalRunRecord): RunChanges {
  const then = new Map(before.cases.map((c) => [`${c.set}/${c.id}`, c.pass]));
  const changes: RunChanges = { newFailures: [], fixed: [], added: [] };
  for (const c of run.cases) {
    const name = `${c.set}/${c.id}`;
    const was = then.get(name);
    if (was === undefined) changes.added.push(name);
    else if (was && !c.pass) changes.newFailures.push(name);
    else if (!was && c.pass) changes.fixed.push(name);
  }
  return changes;
}
