import type { ConversationContext } from '../../core/memory/types.js';
import type { WebRun } from './web-run.js';

/** What a page shows when it (re)connects: the remembered conversation, then the latest run. */
export interface ConversationSnapshot {
  /** Older turns, folded into a summary by memory. */
  summary?: string;
  turns: { question: string; answer: string }[];
  /** The run in progress, or the last one with its steps. */
  run?: WebRun;
  /** Set when memory could not be read. */
  problem?: string;
}

/**
 * Joins memory and the latest run. A run that answered is usually memory's last turn too; it is then
 * shown once, as the run (with its steps).
 */
export function conversationSnapshot(
  history: ConversationContext,
  run: WebRun | undefined,
): ConversationSnapshot {
  let turns = history.turns.map(({ question, answer }) => ({ question, answer }));
  if (run?.phase === 'final' && turns.at(-1)?.question === run.question) turns = turns.slice(0, -1);
  return {
    ...(history.summary ? { summary: history.summary } : {}),
    turns,
    ...(run ? { run } : {}),
  };
}
