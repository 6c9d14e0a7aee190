import { createHash } from 'node:crypto';
import type { BudgetRule, RateRule, UsageScope, UsageStart } from '../../core/ports/usage-store.js';

/** One transaction-scoped advisory lock an admit takes. */
export interface AdmitLock {
  /** A signed 64-bit key, as a decimal string. */
  key: string;
  exclusive: boolean;
}

const scopeName = (scope: UsageScope) =>
  scope === 'all'
    ? 'all'
    : 'userId' in scope
      ? `user:${scope.userId}`
      : 'origin' in scope
        ? `origin:${scope.origin}`
        : `key:${scope.key}`;

const lockKey = (schema: string, scope: string) =>
  createHash('sha256').update(`thinkthread:usage:${schema}:${scope}`).digest().readBigInt64BE(0).toString();

/**
 * The advisory locks that make `admit` atomic across connections and processes, in one global order.
 *
 * Why locks and not SERIALIZABLE: every admit counts a scope and then inserts into it, the textbook write
 * skew, so under SERIALIZABLE racing admits abort and retry. Measured on this project's CI machine (loaded),
 * 8 callers on 8 connections racing for one `all` limit, 800 admits: SERIALIZABLE with retry needed 4485
 * retries (p50 44 ms, p99 1.07 s); the locks none (p50 126 ms, p99 0.49 s), at the same 53 admits/s. And
 * why per scope: a check of scope S races only with an insert into S. So an admit locks each scope its
 * rules count exclusively, and each other scope its own record falls in (its user, its key, `all`) shared.
 * Two admits then wait for each other exactly when one counts what the other writes; admits of different
 * users with per-user rules run side by side (285 admits/s against 53 when all share one `all` rule).
 * Taking the locks in key order rules out deadlocks; a hash collision only adds waiting.
 */
export function admitLocks(
  schema: string,
  start: UsageStart,
  rules: { rates: readonly RateRule[]; budgets: readonly BudgetRule[] },
): AdmitLock[] {
  const counted = new Set([...rules.rates, ...rules.budgets].map((r) => scopeName(r.scope)));
  const written = [
    'all',
    `key:${start.key}`,
    ...(start.userId === null ? [] : [`user:${start.userId}`]),
    ...(start.origin ? [`origin:${start.origin}`] : []),
  ];
  const byKey = new Map<string, AdmitLock>();
  for (const scope of new Set([...counted, ...written])) {
    const key = lockKey(schema, scope);
    const exclusive = counted.has(scope) || byKey.get(key)?.exclusive === true;
    byKey.set(key, { key, exclusive });
  }
  return [...byKey.values()].sort((a, b) => (BigInt(a.key) < BigInt(b.key) ? -1 : 1));
}
