import type { AdminStats, DurationBucket } from '../../../core/ports/admin-stats-store.js';

/** LLM_PRICE_*: dollars per million prompt and completion tokens (unset: no cost shown). */
export interface Prices {
  input?: number | undefined;
  output?: number | undefined;
}

/** What the page draws: one value per day for every series, plus the period's totals. */
export interface ChartData {
  /** `YYYY-MM-DD`, oldest first, every day of the period (days without records are zeros). */
  days: string[];
  platforms: string[];
  /** Questions and tokens (prompt + completion) per platform per day. */
  questions: Record<string, number[]>;
  tokens: Record<string, number[]>;
  /** Estimated dollars per day; null when no price is set. */
  cost: number[] | null;
  /** Cached share of the prompt tokens per day (0–1), null on a day without prompt tokens. */
  cachedShare: (number | null)[];
  up: number[];
  down: number[];
  /** Answered runs' duration percentiles per day, ms; null on a day without answered runs. */
  p50: (number | null)[];
  p95: (number | null)[];
  refused: number[];
  limited: number[];
  totals: {
    questions: number;
    promptTokens: number;
    completionTokens: number;
    cachedTokens: number;
    cost: number | null;
    up: number;
    down: number;
    refused: number;
    limited: number;
    p50: number | null;
    p95: number | null;
  };
}

const DAY_MS = 86_400_000;

/** The chart data of `stats` for the days `firstDay..lastDay` (day numbers in the query's offset). */
export function chartData(stats: AdminStats, firstDay: number, lastDay: number, prices: Prices): ChartData {
  const n = lastDay - firstDay + 1;
  const zeros = () => new Array<number>(n).fill(0);
  const index = (day: number) => day - firstDay;
  const platforms = stats.platforms;
  const questions = Object.fromEntries(platforms.map((p) => [p, zeros()]));
  const tokens = Object.fromEntries(platforms.map((p) => [p, zeros()]));
  const prompt = zeros();
  const completion = zeros();
  const cached = zeros();
  const refused = zeros();
  const limited = zeros();
  for (const d of stats.daily) {
    const i = index(d.day);
    if (i < 0 || i >= n) continue;
    questions[d.platform]![i]! += d.questions;
    tokens[d.platform]![i]! += d.promptTokens + d.completionTokens;
    prompt[i]! += d.promptTokens;
    completion[i]! += d.completionTokens;
    cached[i]! += d.cachedTokens;
    refused[i]! += d.refused;
    limited[i]! += d.limited;
  }
  const up = zeros();
  const down = zeros();
  for (const v of stats.votes) {
    const i = index(v.day);
    if (i < 0 || i >= n) continue;
    up[i] = v.up;
    down[i] = v.down;
  }
  const byDay = new Map<number, DurationBucket[]>();
  for (const b of stats.durations) byDay.set(b.day, [...(byDay.get(b.day) ?? []), b]);
  const priced = prices.input !== undefined || prices.output !== undefined;
  const dollars = (p: number, c: number) => (p * (prices.input ?? 0) + c * (prices.output ?? 0)) / 1e6;
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const days = Array.from({ length: n }, (_, i) =>
    new Date((firstDay + i) * DAY_MS).toISOString().slice(0, 10),
  );
  return {
    days,
    platforms,
    questions,
    tokens,
    cost: priced ? prompt.map((p, i) => dollars(p, completion[i]!)) : null,
    cachedShare: prompt.map((p, i) => (p > 0 ? cached[i]! / p : null)),
    up,
    down,
    p50: days.map((_, i) => percentile(byDay.get(firstDay + i) ?? [], 0.5)),
    p95: days.map((_, i) => percentile(byDay.get(firstDay + i) ?? [], 0.95)),
    refused,
    limited,
    totals: {
      questions: sum(platforms.map((p) => sum(questions[p]!))),
      promptTokens: sum(prompt),
      completionTokens: sum(completion),
      cachedTokens: sum(cached),
      cost: priced ? dollars(sum(prompt), sum(completion)) : null,
      up: sum(up),
      down: sum(down),
      refused: sum(refused),
      limited: sum(limited),
      p50: percentile(stats.durations, 0.5),
      p95: percentile(stats.durations, 0.95),
    },
  };
}

/** The `q` quantile (nearest rank) of the durations the buckets count; null without any. */
export function percentile(buckets: readonly DurationBucket[], q: number): number | null {
  const merged = new Map<number, number>();
  for (const b of buckets) merged.set(b.ms, (merged.get(b.ms) ?? 0) + b.runs);
  const sorted = [...merged].sort((a, b) => a[0] - b[0]);
  const total = sorted.reduce((a, [, runs]) => a + runs, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const [ms, runs] of sorted) {
    seen += runs;
    if (seen >= rank) return ms;
  }
  return sorted.at(-1)![0];
}
