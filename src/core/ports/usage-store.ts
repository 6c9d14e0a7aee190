/** How a question (or a memory summary) ended, as the usage record keeps it. */
export type UsageOutcome =
  | 'pending'
  | 'answered'
  | 'failed'
  | 'cancelled'
  | 'refused'
  | 'limited'
  | 'summary';

/** Who asked what, where, with which model: known when a question is taken. */
export interface UsageStart {
  /** Milliseconds since the epoch. */
  at: number;
  /** `discord`, `slack`, `console`, … */
  platform: string;
  /** The conversation key (channel, thread or DM). */
  key: string;
  /**
   * The asker's principal (`slack:T…:U…`, `discord:…`, `web:…`; see principal.ts); null for memory
   * summaries, which are billed to the channel.
   */
  userId: string | null;
  /** Where the question came from when its limits also count that (a web client's address, `addr:…`). */
  origin?: string | null | undefined;
  model: string;
  /** `tools` or `react`. */
  protocol: string;
}

/** What a finished run spent. */
export interface UsageResult {
  outcome: Exclude<UsageOutcome, 'pending'>;
  modelCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** Of the prompt tokens, those the model's server read from its prompt cache (0 when it does not say). */
  cachedTokens: number;
  /** Tool calls by tool name. */
  tools: Record<string, number>;
  durationMs: number;
  /** The model that answered, when it is not the one the record was started with (a fallback, LLM_FALLBACK). */
  answeredBy?: string | undefined;
}

/** What a record that spent nothing stores (a refused or limited ask, a question not yet answered). */
export const NOTHING_SPENT: Readonly<Omit<UsageResult, 'outcome'>> = Object.freeze({
  modelCalls: 0,
  promptTokens: 0,
  completionTokens: 0,
  cachedTokens: 0,
  tools: Object.freeze({}),
  durationMs: 0,
});

/** One complete usage record. */
export interface UsageRecord extends UsageStart, UsageResult {}

/** A stored record, with its id; `pending` while its question runs. */
export interface StoredUsageRecord extends UsageStart, Omit<UsageResult, 'outcome' | 'answeredBy'> {
  id: number;
  outcome: UsageOutcome;
}

/** Who a rule counts: one principal (across channels), one origin, one conversation key, or the whole bot. */
export type UsageScope = { userId: string } | { origin: string } | { key: string } | 'all';

/**
 * At most `limit` questions taken by `scope` in the `windowMs` before now. Taken = recorded with outcome
 * pending, answered, failed or cancelled (not refused or limited, which cost nothing).
 */
export interface RateRule {
  /** Names the rule in the refusal, e.g. `RATE_LIMIT_USER`. */
  name: string;
  scope: UsageScope;
  limit: number;
  windowMs: number;
}

/** At most `limit` prompt + completion tokens spent by `scope` since `since` (summaries count for their key). */
export interface BudgetRule {
  /** Names the rule in the refusal, e.g. `TOKEN_BUDGET_USER_DAY`. */
  name: string;
  scope: UsageScope;
  limit: number;
  /** Start of the budget's day, ms since the epoch. */
  since: number;
  /** When the budget's day ends and it is fresh again. */
  resetsAt: number;
}

/** Whether a question was taken; when not, which rule stopped it and when the next one will be taken. */
export type Admission =
  | { admitted: true; id: number }
  | { admitted: false; rule: string; retryAt: number; recordId: number };

/** What a usage summary is grouped by. */
export type UsageGrouping = 'user' | 'key' | 'day' | 'none';

/** A usage summary query: records with `since <= at < until`, optionally of one user or key. */
export interface UsageQuery {
  since: number;
  until: number;
  by: UsageGrouping;
  userId?: string | undefined;
  key?: string | undefined;
  /** With `by: 'day'`: the IANA zone whose calendar days group the records (default UTC). */
  timeZone?: string | undefined;
  /** The largest groups first (by tokens), at most this many. */
  top?: number | undefined;
}

/** One group of a usage summary. */
export interface UsageTotals {
  /** The user ID, key, or day (YYYY-MM-DD); `all` for `by: 'none'`. */
  group: string;
  /** Questions taken (not refused or limited). */
  questions: number;
  refused: number;
  limited: number;
  modelCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens served from the model server's cache. */
  cachedTokens: number;
}

/** The totals of no records at all. */
export const NO_USAGE: Omit<UsageTotals, 'group'> = {
  questions: 0,
  refused: 0,
  limited: 0,
  modelCalls: 0,
  promptTokens: 0,
  completionTokens: 0,
  cachedTokens: 0,
};

/**
 * Where usage is recorded and limits are counted. `admit` is atomic: the check and the record it writes
 * happen as one, so limits hold across concurrent questions, restarts and (with a shared database) replicas.
 */
export interface UsageStore {
  /**
   * Takes a question if no rate rule or budget is exceeded at `start.at`: records it as pending and
   * returns its id. Otherwise records it as limited and says which rule and when it frees up (never
   * before `start.at`, even when the clock went back).
   */
  admit(
    start: UsageStart,
    rules: { rates: readonly RateRule[]; budgets: readonly BudgetRule[] },
  ): Promise<Admission>;
  /** Completes a pending record with what the run spent. */
  complete(id: number, result: UsageResult): Promise<void>;
  /** Records something that was never admitted (a refused ask) or not a question (a memory summary). */
  record(record: UsageRecord): Promise<void>;
  /** Totals of the matching records, grouped. */
  totals(query: UsageQuery): Promise<UsageTotals[]>;
  /** Every matching record, oldest first (for exports). */
  records(query: Omit<UsageQuery, 'by' | 'top' | 'timeZone'>): Promise<StoredUsageRecord[]>;
}
