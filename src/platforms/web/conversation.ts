import type { ConversationContext } from '../../core/memory/types.js';
import type { WebRun } from './web-run.js';

/** What a page shows when it (re)connects: the remembered conversation, then the latest run. */
export interface ConversationSnapshot {
  /** Older turns, folded into a summary by memory. */
  summary?: string;
  turns: { question: string; answer: string }[];
  /** The conversation's kept answers with their steps (history), oldest first; replaces `turns` when any. */
  runs: WebRun[];
  /** The run in progress, or the last one with its steps. */
  run?: WebRun;
  /** Set when memory could not be read. */
  problem?: string;
}

/**
 * Joins memory, the kept answers and the latest run. Kept answers (with their steps) stand for the
 * conversation when there are any; memory's turns are shown for a conversation from before they were kept.
 * A run that answered is usually the last kept answer or memory's last turn too; it is then shown once, as
 * the run (with its steps).
 */
export function conversationSnapshot(
  history: ConversationContext,
  run: WebRun | undefined,
  kept: readonly WebRun[] = [],
): ConversationSnapshot {
  const runs = kept.filter((r) => r.id !== run?.id);
  if (kept.length > 0) return { turns: [], runs, ...(run ? { run } : {}) };
  let turns = history.turns.map(({ question, answer }) => ({ question, answer }));
  if (run?.phase === 'final' && turns.at(-1)?.question === run.question) turns = turns.slice(0, -1);
  return {
    ...(history.summary ? { summary: history.summary } : {}),
    turns,
    runs,
    ...(run ? { run } : {}),
  };
}

/**
 * `runs` with only the kept calls still waiting (`waiting`: their ids, as the core lists them): a call
 * decided, expired or gone since its run was kept loses its buttons.
 */
export function stillWaiting(runs: readonly WebRun[], waiting: ReadonlySet<string>): WebRun[] {
  return runs.map((run) => {
    if (!run.approvals?.length) return run;
    const approvals = run.approvals.filter((a) => waiting.has(a.id));
    const { approvals: _kept, ...rest } = run;
    return approvals.length > 0 ? { ...rest, approvals } : rest;
  });
}
