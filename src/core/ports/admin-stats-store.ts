import type { UsageTotals } from './usage-store.js';

/** Which usage records the admin page's charts count: `since <= at < until`, narrowed by any filter given. */
export interface AdminStatsQuery {
  since: number;
  until: number;
  /** Added to `at` before cutting days (the zone's offset now, so days are the owner's own). */
  offsetMs: number;
  platform?: string | undefined;
  key?: string | undefined;
  userId?: string | undefined;
  model?: string | undefined;
}

/** One day's usage on one platform. */
export interface DailyUsage extends Omit<UsageTotals, 'group'> {
  /** Days since 1970-01-01 (in the query's offset). */
  day: number;
  platform: string;
}

/** How many answered runs of a day took about `ms` (two significant digits). */
export interface DurationBucket {
  day: number;
  ms: number;
  runs: number;
}

/** A person's or a conversation's share of the period. */
export interface TopEntry {
  name: string;
  questions: number;
  promptTokens: number;
  completionTokens: number;
}

/** A tool's calls in the period; `failed` counts the calls whose run log says they failed. */
export interface ToolCount {
  tool: string;
  calls: number;
  failed: number;
}

/** Votes of one day. */
export interface DailyVotes {
  day: number;
  up: number;
  down: number;
}

/** Everything the admin page draws for a period, from a handful of aggregate queries. */
export interface AdminStats {
  daily: DailyUsage[];
  durations: DurationBucket[];
  topPeople: TopEntry[];
  topChannels: TopEntry[];
  tools: ToolCount[];
  votes: DailyVotes[];
  /** The platforms, models seen in the period (for the filters). */
  platforms: string[];
  models: string[];
}

/** Aggregates over usage records, feedback and run logs for the admin page (indexed; one period at a time). */
export interface AdminStatsStore {
  adminStats(query: AdminStatsQuery, top: number): Promise<AdminStats>;
  /** Every saved channel setting, by key then name (the settings overview). */
  adminChannelSettings(): Promise<{ key: string; name: string; value: string }[]>;
}
