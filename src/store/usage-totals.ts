import { NO_USAGE, type UsageQuery, type UsageTotals } from '../core/ports/usage-store.js';
import { dayIn } from './usage-days.js';

/** A row of sums as either engine returns it, grouped by `grp` (a name, or a time for days). */
export interface TotalsRow extends Omit<UsageTotals, 'group'> {
  grp: string | number;
}

/** The totals `query` asks for from its rows: days merged in its time zone, ordered, `all` when empty. */
export function totalsFrom(rows: readonly TotalsRow[], query: UsageQuery): UsageTotals[] {
  const totals = rows.map(({ grp, ...sums }) => ({ group: String(grp), ...sums }));
  const groups = query.by === 'day' ? mergeByDay(totals, query.timeZone ?? 'UTC') : totals;
  if (query.by === 'none' && groups.length === 0) groups.push({ group: 'all', ...NO_USAGE });
  return orderTotals(groups, query.top);
}

/**
 * Merges groups named by a time (ms since the epoch, e.g. the start of a quarter hour none of whose
 * records straddle a local midnight) into groups named by that time's calendar day in `timeZone`.
 */
function mergeByDay(groups: readonly UsageTotals[], timeZone: string): UsageTotals[] {
  const dayOf = dayIn(timeZone);
  const days = new Map<string, UsageTotals>();
  for (const g of groups) {
    const group = dayOf(Number(g.group));
    const seen = days.get(group) ?? { group, ...NO_USAGE };
    days.set(group, {
      group,
      questions: seen.questions + g.questions,
      refused: seen.refused + g.refused,
      limited: seen.limited + g.limited,
      modelCalls: seen.modelCalls + g.modelCalls,
      promptTokens: seen.promptTokens + g.promptTokens,
      completionTokens: seen.completionTokens + g.completionTokens,
      cachedTokens: seen.cachedTokens + g.cachedTokens,
    });
  }
  return [...days.values()];
}

const tokensOf = (t: UsageTotals) => t.promptTokens + t.completionTokens;
const byGroup = (a: UsageTotals, b: UsageTotals) => (a.group < b.group ? -1 : a.group > b.group ? 1 : 0);

/** Groups in order of their name; with `top`, the largest (tokens, then questions) first, at most `top`. */
function orderTotals(groups: UsageTotals[], top: number | undefined): UsageTotals[] {
  if (top === undefined) return groups.sort(byGroup);
  return groups
    .sort((a, b) => tokensOf(b) - tokensOf(a) || b.questions - a.questions || byGroup(a, b))
    .slice(0, Math.max(0, top));
}
