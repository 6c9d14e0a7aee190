import { StorageError } from '../../core/errors.js';
import type {
  Admission,
  BudgetRule,
  RateRule,
  UsageQuery,
  UsageScope,
  UsageStart,
  UsageStore,
} from '../../core/ports/usage-store.js';
import { forgottenAlias } from '../forget-steps.js';
import { QUARTER_HOUR_MS } from '../usage-days.js';
import { admissionOf, type Limit, latestLimit } from '../usage-limits.js';
import { nothingSpent, recordOf, rowOf, spentOf, type UsageRow } from '../usage-rows.js';
import { type TotalsRow, totalsFrom } from '../usage-totals.js';
import type { PostgresDb, Sql } from './postgres-db.js';
import { admitLocks } from './postgres-usage-locks.js';

const TAKEN = "outcome IN ('pending', 'answered', 'failed', 'cancelled')";
const COLUMNS = `id, at, platform, key, user_id, origin, model, protocol, outcome, model_calls, prompt_tokens,
  completion_tokens, cached_tokens, tools::text AS tools, duration_ms`;
// $1..$4: since, until, userId, key.
const FILTER =
  'at >= $1 AND at < $2 AND ($3::text IS NULL OR user_id = $3) AND ($4::text IS NULL OR key = $4)';
const SUMS = `COUNT(*) FILTER (WHERE ${TAKEN}) AS questions,
  COUNT(*) FILTER (WHERE outcome = 'refused') AS refused,
  COUNT(*) FILTER (WHERE outcome = 'limited') AS limited,
  COALESCE(SUM(model_calls), 0) AS "modelCalls",
  COALESCE(SUM(prompt_tokens), 0) AS "promptTokens",
  COALESCE(SUM(completion_tokens), 0) AS "completionTokens",
  COALESCE(SUM(cached_tokens), 0) AS "cachedTokens"`;
// Floored (not truncated) so that times before 1970 land in the right quarter hour too.
const QUARTER = `at - ((at % ${QUARTER_HOUR_MS}) + ${QUARTER_HOUR_MS}) % ${QUARTER_HOUR_MS}`;
const GROUPS = { user: 'user_id', key: 'key', day: QUARTER, none: "'all'" } as const;
const INSERT = `INSERT INTO usage (at, platform, key, user_id, model, protocol, outcome, model_calls, prompt_tokens,
    completion_tokens, cached_tokens, tools, duration_ms, origin)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13, $14) RETURNING id`;

type Rules = { rates: readonly RateRule[]; budgets: readonly BudgetRule[] };

/**
 * The SQL condition selecting `scope`'s records, with its parameters (numbered from `$n`); a person's
 * records count with those kept under their pseudonym after forget-me (forget-steps.ts).
 */
const scopeWhere = (scope: UsageScope, n: number): [string, unknown[]] =>
  scope === 'all'
    ? ['TRUE', []]
    : 'userId' in scope
      ? [`user_id IN ($${n}, $${n + 1})`, [scope.userId, forgottenAlias(scope.userId)]]
      : 'origin' in scope
        ? [`origin = $${n}`, [scope.origin]]
        : [`key = $${n}`, [scope.key]];

const insertParams = (row: Omit<UsageRow, 'id'>) => [
  row.at,
  row.platform,
  row.key,
  row.user_id,
  row.model,
  row.protocol,
  row.outcome,
  row.model_calls,
  row.prompt_tokens,
  row.completion_tokens,
  row.cached_tokens,
  row.tools,
  row.duration_ms,
  row.origin,
];

/**
 * Unlike SQLite's, this counts questions stamped after `at` too: replicas' clocks differ by a few ms and
 * racing admits commit in any order, and a question another replica took "later" still fills the window.
 * When the window up to `at` alone is full, `retryAt` is computed from it as SQLite does, so an ask whose
 * clock went back is told when its own window frees up.
 */
async function rateLimit(sql: Sql, at: number, rule: RateRule): Promise<Limit | undefined> {
  const [where, scopeParams] = scopeWhere(rule.scope, 2);
  const params = [at - rule.windowMs, ...scopeParams];
  const counted = `FROM usage WHERE ${where} AND ${TAKEN} AND at > $1`;
  const upToAt = `at <= $${params.length + 1}`;
  const { taken, upToNow } = (
    await sql<{ taken: number; upToNow: number }>(
      `SELECT COUNT(*) AS taken, COUNT(*) FILTER (WHERE ${upToAt}) AS "upToNow" ${counted}`,
      [...params, at],
    )
  ).rows[0]!;
  if (taken < rule.limit) return undefined;
  const own = upToNow >= rule.limit;
  // One more fits once all but limit - 1 of the counted questions have left the window.
  const offset = Math.max(0, (own ? upToNow : taken) - Math.max(rule.limit, 1));
  const freeing = (
    await sql<{ at: number }>(
      `SELECT at ${counted}${own ? ` AND ${upToAt}` : ''} ORDER BY at LIMIT 1 OFFSET ${offset}`,
      own ? [...params, at] : params,
    )
  ).rows[0]?.at;
  return { rule: rule.name, retryAt: Math.max(at, (freeing ?? at) + rule.windowMs) };
}

async function budgetLimit(sql: Sql, at: number, rule: BudgetRule): Promise<Limit | undefined> {
  const [where, params] = scopeWhere(rule.scope, 3);
  const used = (
    await sql<{ n: number }>(
      `SELECT COALESCE(SUM(prompt_tokens + completion_tokens), 0) AS n FROM usage
        WHERE ${where} AND at >= $1 AND at < $2`,
      [rule.since, rule.resetsAt, ...params],
    )
  ).rows[0]!.n;
  return used < rule.limit ? undefined : { rule: rule.name, retryAt: Math.max(at, rule.resetsAt) };
}

/**
 * The usage half of the Postgres store. `admit` is one READ COMMITTED transaction that first takes advisory
 * locks (see postgres-usage-locks.ts) so that no other admit, in any process, records a question into a
 * scope it is counting between its count and its insert.
 */
export function postgresUsage(db: PostgresDb): UsageStore {
  const schema = db.target.schema;
  return {
    async admit(start: UsageStart, rules: Rules): Promise<Admission> {
      return db.transaction('check the usage limits', async (sql) => {
        const locks = admitLocks(schema, start, rules);
        await sql(
          `SELECT CASE WHEN x THEN pg_advisory_xact_lock(k) ELSE pg_advisory_xact_lock_shared(k) END
             FROM unnest($1::bigint[], $2::boolean[]) AS l(k, x)`,
          [locks.map((l) => l.key), locks.map((l) => l.exclusive)],
        );
        const limits: Limit[] = [];
        for (const rate of rules.rates) {
          const limit = await rateLimit(sql, start.at, rate);
          if (limit) limits.push(limit);
        }
        for (const budget of rules.budgets) {
          const limit = await budgetLimit(sql, start.at, budget);
          if (limit) limits.push(limit);
        }
        const latest = latestLimit(limits);
        const row = rowOf({ ...start, ...nothingSpent(latest ? 'limited' : 'pending') });
        const id = (await sql<{ id: number }>(INSERT, insertParams(row))).rows[0]!.id;
        return admissionOf(latest, id);
      });
    },
    async complete(id, result) {
      const spent = spentOf(result);
      await db.transaction('complete a usage record', async (sql) => {
        const updated = await sql(
          `UPDATE usage SET outcome = $1, model_calls = $2, prompt_tokens = $3, completion_tokens = $4,
             cached_tokens = $5, tools = $6::jsonb, duration_ms = $7, model = COALESCE($9, model)
           WHERE id = $8 AND outcome = 'pending'`,
          [
            spent.outcome,
            spent.model_calls,
            spent.prompt_tokens,
            spent.completion_tokens,
            spent.cached_tokens,
            spent.tools,
            spent.duration_ms,
            id,
            result.answeredBy ?? null,
          ],
        );
        if (updated.rowCount === 1) return;
        const found = (await sql<{ outcome: string }>('SELECT outcome FROM usage WHERE id = $1', [id]))
          .rows[0];
        throw new StorageError(
          found
            ? `The usage record ${id} is ${found.outcome}, not pending`
            : `There is no usage record ${id}`,
        );
      });
    },
    async record(record) {
      await db.query('store a usage record', INSERT, insertParams(rowOf(record)));
    },
    async totals(query) {
      const { rows } = await db.query<TotalsRow>(
        'sum up usage',
        `SELECT ${GROUPS[query.by]} AS grp, ${SUMS} FROM usage
          WHERE ${FILTER}${query.by === 'user' ? ' AND user_id IS NOT NULL' : ''} GROUP BY 1`,
        filterOf(query),
      );
      return totalsFrom(rows, query);
    },
    async records(query) {
      const { rows } = await db.query<UsageRow>(
        'read usage records',
        `SELECT ${COLUMNS} FROM usage WHERE ${FILTER} ORDER BY at, id`,
        filterOf(query),
      );
      return rows.map(recordOf);
    },
  };
}

const filterOf = (q: Omit<UsageQuery, 'by' | 'top' | 'timeZone'>) => [
  q.since,
  q.until,
  q.userId ?? null,
  q.key ?? null,
];
