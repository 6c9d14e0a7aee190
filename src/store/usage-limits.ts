import type { Admission } from '../core/ports/usage-store.js';

/** A limit a question hits: the rule's name, and when a question fits again. */
export interface Limit {
  rule: string;
  retryAt: number;
}

/** The limit, of those hit, that frees up last. */
export function latestLimit(limits: readonly (Limit | undefined)[]): Limit | undefined {
  return limits.reduce<Limit | undefined>(
    (a, b) => (b === undefined || (a && a.retryAt >= b.retryAt) ? a : b),
    undefined,
  );
}

/** The answer to admitting a question recorded as `id`: refused by `latest` when a limit was hit. */
export function admissionOf(latest: Limit | undefined, id: number): Admission {
  return latest ? { admitted: false, ...latest, recordId: id } : { admitted: true, id };
}
