import type Database from 'better-sqlite3';
import { StorageError } from '../../core/errors.js';
import type {
  BudgetRule,
  RateRule,
  UsageOutcome,
  UsageQuery,
  UsageScope,
  UsageStart,
  UsageStore,
} from '../../core/ports/usage-store.js';
import { forgottenAlias } from '../forget-steps.js';
import { QUARTER_HOUR_MS } from '../usage-days.js';
import { admissionOf, type Limit, latestLimit } from '../usage-limits.js';
import { nothingSpent, recordOf, rowOf, type SpentColumns, spentOf, type UsageRow } from '../usage-rows.js';
import { type TotalsRow, totalsFrom } from '../usage-totals.js';

/** Wraps whatever a statement threw into a StorageError saying what could not be done. */
export type FailWith = (what: string, err: unknown) => StorageError;

const TAKEN = "outcome IN ('pending', 'answered', 'failed', 'cancelled')";
// A person's records count with those kept under their pseudonym after forget-me (forget-steps.ts).
const SCOPES = { user: 'user_id IN (?, ?)', origin: 'origin = ?', key: 'key = ?', all: '1 = 1' } as const;
type ScopeKind = keyof typeof SCOPES;

interface Filter {
  since: number;
  until: number;
  userId: string | null;
  key: string | null;
}

const scopeOf = (scope: UsageScope): [ScopeKind, string[]] =>
  scope === 'all'
    ? ['all', []]
    : 'userId' in scope
      ? ['user', [scope.userId, forgottenAlias(scope.userId)]]
      : 'origin' in scope
        ? ['origin', [scope.origin]]
        : ['key', [scope.key]];

const FILTER =
  'at >= @since AND at < @until AND (@userId IS NULL OR user_id = @userId) AND (@key IS NULL OR key = @key)';
const SUMS = `COALESCE(SUM(${TAKEN}), 0) AS questions,
  COALESCE(SUM(outcome = 'refused'), 0) AS refused,
  COALESCE(SUM(outcome = 'limited'), 0) AS limited,
  COALESCE(SUM(model_calls), 0) AS modelCalls,
  COALESCE(SUM(prompt_tokens), 0) AS promptTokens,
  COALESCE(SUM(completion_tokens), 0) AS completionTokens,
  COALESCE(SUM(cached_tokens), 0) AS cachedTokens`;
// Floored (not truncated) so that times before 1970 land in the right quarter hour too.
const QUARTER = `at - ((at % ${QUARTER_HOUR_MS}) + ${QUARTER_HOUR_MS}) % ${QUARTER_HOUR_MS}`;
const GROUPS = { user: 'user_id', key: 'key', day: QUARTER, none: "'all'" } as const;

/**
 * The usage half of the SQLite store, on the connection `db` (already migrated). `admit` is one IMMEDIATE
 * transaction: it takes the write lock before counting, so no other connection or process can slip a
 * question in between the check and the record.
 */
export function sqliteUsage(db: Database.Database, fail: FailWith): UsageStore {
  const scoped = <R>(sql: (where: string) => string) => {
    const make = (kind: ScopeKind) => db.prepare<unknown[], R>(sql(SCOPES[kind]));
    return { user: make('user'), origin: make('origin'), key: make('key'), all: make('all') };
  };
  const countTaken = scoped<{ n: number }>(
    (w) => `SELECT COUNT(*) AS n FROM usage WHERE ${w} AND ${TAKEN} AND at > ? AND at <= ?`,
  );
  const nthTaken = scoped<{ at: number }>(
    (w) => `SELECT at FROM usage WHERE ${w} AND ${TAKEN} AND at > ? AND at <= ? ORDER BY at LIMIT 1 OFFSET ?`,
  );
  const spent = scoped<{ n: number }>(
    (w) =>
      `SELECT COALESCE(SUM(prompt_tokens + completion_tokens), 0) AS n FROM usage WHERE ${w} AND at >= ? AND at < ?`,
  );
  const insert = db.prepare<[Omit<UsageRow, 'id'>]>(
    `INSERT INTO usage (at, platform, key, user_id, origin, model, protocol, outcome, model_calls, prompt_tokens,
       completion_tokens, cached_tokens, tools, duration_ms)
     VALUES (@at, @platform, @key, @user_id, @origin, @model, @protocol, @outcome, @model_calls, @prompt_tokens,
       @completion_tokens, @cached_tokens, @tools, @duration_ms)`,
  );
  const finish = db.prepare<[SpentColumns & { id: number; answered_by: string | null }]>(
    `UPDATE usage SET outcome = @outcome, model_calls = @model_calls, prompt_tokens = @prompt_tokens,
       completion_tokens = @completion_tokens, cached_tokens = @cached_tokens, tools = @tools,
       duration_ms = @duration_ms, model = COALESCE(@answered_by, model)
     WHERE id = @id AND outcome = 'pending'`,
  );
  const selectOutcome = db.prepare<[number], { outcome: UsageOutcome }>(
    'SELECT outcome FROM usage WHERE id = ?',
  );
  const selectRecords = db.prepare<[Filter], UsageRow>(`SELECT * FROM usage WHERE ${FILTER} ORDER BY at, id`);
  const selectTotals = Object.fromEntries(
    Object.entries(GROUPS).map(([by, expr]) => [
      by,
      db.prepare<[Filter], TotalsRow>(
        `SELECT ${expr} AS grp, ${SUMS} FROM usage
          WHERE ${FILTER}${by === 'user' ? ' AND user_id IS NOT NULL' : ''} GROUP BY grp`,
      ),
    ]),
  ) as Record<UsageQuery['by'], Database.Statement<[Filter], TotalsRow>>;

  const rateLimit = (at: number, rule: RateRule): Limit | undefined => {
    const [kind, params] = scopeOf(rule.scope);
    const from = at - rule.windowMs;
    const taken = countTaken[kind].get(...params, from, at)?.n ?? 0;
    if (taken < rule.limit) return undefined;
    // One more fits once all but limit - 1 of the counted questions have left the window.
    const freeing = nthTaken[kind].get(...params, from, at, taken - Math.max(rule.limit, 1))?.at;
    return { rule: rule.name, retryAt: Math.max(at, (freeing ?? at) + rule.windowMs) };
  };
  const budgetLimit = (at: number, rule: BudgetRule): Limit | undefined => {
    const [kind, params] = scopeOf(rule.scope);
    const used = spent[kind].get(...params, rule.since, rule.resetsAt)?.n ?? 0;
    return used < rule.limit ? undefined : { rule: rule.name, retryAt: Math.max(at, rule.resetsAt) };
  };

  const admit = db.transaction(
    (start: UsageStart, rules: { rates: readonly RateRule[]; budgets: readonly BudgetRule[] }) => {
      const latest = latestLimit([
        ...rules.rates.map((r) => rateLimit(start.at, r)),
        ...rules.budgets.map((b) => budgetLimit(start.at, b)),
      ]);
      const outcome = latest ? 'limited' : 'pending';
      const id = Number(insert.run(rowOf({ ...start, ...nothingSpent(outcome) })).lastInsertRowid);
      return admissionOf(latest, id);
    },
  );

  return {
    async admit(start, rules) {
      try {
        return admit.immediate(start, rules);
      } catch (err) {
        throw fail('check the usage limits', err);
      }
    },
    async complete(id, result) {
      try {
        if (finish.run({ id, ...spentOf(result), answered_by: result.answeredBy ?? null }).changes === 1)
          return;
        const found = selectOutcome.get(id)?.outcome;
        throw new StorageError(
          found ? `The usage record ${id} is ${found}, not pending` : `There is no usage record ${id}`,
        );
      } catch (err) {
        throw fail('complete a usage record', err);
      }
    },
    async record(record) {
      try {
        insert.run(rowOf(record));
      } catch (err) {
        throw fail('store a usage record', err);
      }
    },
    async totals(query) {
      try {
        return totalsFrom(selectTotals[query.by].all(filterOf(query)), query);
      } catch (err) {
        throw fail('sum up usage', err);
      }
    },
    async records(query) {
      try {
        return selectRecords.all(filterOf(query)).map(recordOf);
      } catch (err) {
        throw fail('read usage records', err);
      }
    },
  };
}

const filterOf = (q: Omit<UsageQuery, 'by' | 'top' | 'timeZone'>): Filter => ({
  since: q.since,
  until: q.until,
  userId: q.userId ?? null,
  key: q.key ?? null,
});
