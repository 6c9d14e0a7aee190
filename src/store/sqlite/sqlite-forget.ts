import type Database from 'better-sqlite3';
import type { ArchiveStore, ForgetRequest } from '../../core/ports/archive-store.js';
import { emptyReport, FORGET_STEPS, forgetParams } from '../forget-steps.js';
import type { FailWith } from './sqlite-usage.js';

/** Forget-me on the SQLite store: every step (forget-steps.ts) in one IMMEDIATE transaction. */
export function sqliteForget(db: Database.Database, fail: FailWith): Pick<ArchiveStore, 'forgetPerson'> {
  const steps = FORGET_STEPS.map((step) => ({ kind: step.kind, statement: db.prepare(step.sqlite) }));
  const forget = db.transaction((request: ForgetRequest) => {
    const params = forgetParams(request);
    const report = emptyReport();
    for (const { kind, statement } of steps) {
      // Each statement is given exactly the parameters it names (better-sqlite3 refuses others).
      const named = Object.entries(params).filter(([name]) => statement.source.includes(`@${name}`));
      const { changes } = statement.run(Object.fromEntries(named));
      if (kind) report[kind] += changes;
    }
    return report;
  });
  return {
    async forgetPerson(request) {
      try {
        return forget.immediate(request);
      } catch (err) {
        throw fail('forget a person', err);
      }
    },
  };
}
