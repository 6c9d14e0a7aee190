import type { UsageTotals } from '../core/ports/usage-store.js';
import { type Align, formatCsv, formatTable } from './format-table.js';

/** USD per million prompt (input) and completion (output) tokens. */
export interface Prices {
  inputPerMTok: number;
  outputPerMTok: number;
}

/** What the report shows: the groups, the grand total, and prices when known. */
export interface UsageReport {
  /** The first column's title: `user`, `channel` or `day`. */
  groupTitle: string;
  groups: readonly UsageTotals[];
  total: UsageTotals;
  prices?: Prices | undefined;
}

const tokensOf = (t: UsageTotals) => t.promptTokens + t.completionTokens;
/** US dollars for some tokens at `p`. */
export const costOf = (t: Pick<UsageTotals, 'promptTokens' | 'completionTokens'>, p: Prices) =>
  (t.promptTokens * p.inputPerMTok + t.completionTokens * p.outputPerMTok) / 1_000_000;

/** The prices when either is configured (the other then counts as 0), else undefined. */
export function pricesOf(input: number | undefined, output: number | undefined): Prices | undefined {
  if (input === undefined && output === undefined) return undefined;
  return { inputPerMTok: input ?? 0, outputPerMTok: output ?? 0 };
}

const COLUMNS = [
  ['questions', 'questions'],
  ['refused', 'refused'],
  ['limited', 'limited'],
  ['model calls', 'model_calls'],
  ['prompt tokens', 'prompt_tokens'],
  ['of which cached', 'cached_prompt_tokens'],
  ['completion tokens', 'completion_tokens'],
  ['total tokens', 'total_tokens'],
] as const;

function numbers(t: UsageTotals): number[] {
  return [
    t.questions,
    t.refused,
    t.limited,
    t.modelCalls,
    t.promptTokens,
    t.cachedTokens,
    t.completionTokens,
    tokensOf(t),
  ];
}

/** The report as an aligned text table, with the total as its last row. */
export function usageTable(report: UsageReport): string {
  const { prices } = report;
  const header = [
    report.groupTitle,
    ...COLUMNS.map(([title]) => title),
    ...(prices ? ['est. cost (USD)'] : []),
  ];
  const row = (t: UsageTotals, group = t.group) => [
    group,
    ...numbers(t).map((n) => n.toLocaleString('en-US')),
    ...(prices ? [`$${costOf(t, prices).toFixed(2)}`] : []),
  ];
  const align: Align[] = header.map((_, c) => (c === 0 ? 'left' : 'right'));
  return formatTable(
    header,
    report.groups.map((t) => row(t)),
    align,
    row(report.total, 'total'),
  );
}

/** The report as RFC 4180 CSV with a header line, the total as its last row (group `total`). */
export function usageCsv(report: UsageReport): string {
  const { prices } = report;
  const header = [
    report.groupTitle,
    ...COLUMNS.map(([, name]) => name),
    ...(prices ? ['estimated_cost_usd'] : []),
  ];
  const row = (t: UsageTotals, group = t.group) => [
    group,
    ...numbers(t).map(String),
    ...(prices ? [costOf(t, prices).toFixed(6)] : []),
  ];
  return formatCsv([header, ...report.groups.map((t) => row(t)), row(report.total, 'total')]);
}

/** Largest first (tokens, then questions), except days, which stay in calendar order. */
export function reportOrder(groups: UsageTotals[], byDay: boolean): UsageTotals[] {
  if (byDay) return groups;
  return groups.sort(
    (a, b) => tokensOf(b) - tokensOf(a) || b.questions - a.questions || (a.group < b.group ? -1 : 1),
  );
}

/** What `total` holds beyond the sum of `groups` (records no group counts, e.g. summaries by user). */
export function remainder(
  total: UsageTotals,
  groups: readonly UsageTotals[],
  group: string,
): UsageTotals | undefined {
  const rest: UsageTotals = { ...total, group };
  for (const g of groups) {
    rest.questions -= g.questions;
    rest.refused -= g.refused;
    rest.limited -= g.limited;
    rest.modelCalls -= g.modelCalls;
    rest.promptTokens -= g.promptTokens;
    rest.completionTokens -= g.completionTokens;
    rest.cachedTokens -= g.cachedTokens;
  }
  return numbers(rest).some((n) => n !== 0) ? rest : undefined;
}
