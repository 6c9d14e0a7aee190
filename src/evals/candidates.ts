/**
 * 👎 votes with a reason are candidate cases until an admin accepts one (it becomes a case) or dismisses it.
 * The decisions are kept in `evals/candidates.json` in the data folder, by vote (platform, run, person).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Downvote } from '../core/ports/run-log-store.js';

/** What an admin did with a candidate. */
export type Decision = 'accepted' | 'dismissed';

/** A vote's id as the page carries it. */
export function candidateId(d: Pick<Downvote, 'platform' | 'runId' | 'userId'>): string {
  return `${d.platform}|${d.runId}|${d.userId}`;
}

/** The file the decisions are kept in, under `dataDir`. */
export function decisionsFile(dataDir: string): string {
  return join(dataDir, 'evals', 'candidates.json');
}

/** The decisions so far, by candidate id. */
export function readDecisions(file: string): Record<string, Decision> {
  if (!existsSync(file)) return {};
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { decided?: Record<string, Decision> };
    return parsed.decided ?? {};
  } catch {
    return {};
  }
}

/** Keeps `decision` on candidate `id` (the file is replaced whole, never left half written). */
export function decide(file: string, id: string, decision: Decision): void {
  const decided = { ...readDecisions(file), [id]: decision };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, `${JSON.stringify({ decided }, null, 1)}\n`);
  renameSync(`${file}.tmp`, file);
}
