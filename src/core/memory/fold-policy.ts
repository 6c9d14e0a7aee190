import type { TurnWindow } from '../ports/conversation-store.js';
import type { MemoryBudget } from './types.js';

/** A compression brings the verbatim turns down to this share of MEMORY_MAX_TOKENS, so the next is a while off. */
export const FOLD_TARGET_SHARE = 0.5;
/** One summary call folds at most this many times MEMORY_MAX_TOKENS of turns (after a long summariser outage). */
export const MAX_FOLD_SHARE = 4;
/** The agent is shown at most this many times MEMORY_MAX_TOKENS of turns, should compression fall behind. */
export const MAX_VISIBLE_SHARE = 2;

/**
 * How many of the oldest turns (their token counts, oldest first) to fold into the summary now: none unless
 * they exceed MEMORY_MAX_TOKENS and there are more than MEMORY_KEEP_TURNS; then the oldest, until the rest
 * fits in half the budget, never leaving fewer than MEMORY_KEEP_TURNS verbatim.
 */
export function turnsToFold(tokens: readonly number[], budget: MemoryBudget): number {
  const keep = budget.MEMORY_KEEP_TURNS;
  let remaining = sum(tokens);
  if (remaining <= budget.MEMORY_MAX_TOKENS || tokens.length <= keep) return 0;
  const target = budget.MEMORY_MAX_TOKENS * FOLD_TARGET_SHARE;
  const batch = budget.MEMORY_MAX_TOKENS * MAX_FOLD_SHARE;
  let folded = 0;
  let foldedTokens = 0;
  while (folded < tokens.length - keep && remaining > target) {
    const next = tokens[folded]!;
    if (folded > 0 && foldedTokens + next > batch) break;
    remaining -= next;
    foldedTokens += next;
    folded++;
  }
  return folded;
}

/**
 * The turns the agent is shown: normally all stored ones; if compression has fallen behind, only the newest
 * within twice MEMORY_MAX_TOKENS (never fewer than MEMORY_KEEP_TURNS), so prompts stay bounded. The rest
 * stays stored and reaches the summary once compression catches up.
 */
export function visibleWindow(budget: MemoryBudget): TurnWindow {
  return { maxTokens: budget.MEMORY_MAX_TOKENS * MAX_VISIBLE_SHARE, keep: budget.MEMORY_KEEP_TURNS };
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}
