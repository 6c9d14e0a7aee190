import type { ArchiveStore } from '../../core/ports/archive-store.js';
import { emptyReport, FORGET_STEPS, forgetParams } from '../forget-steps.js';
import { numbered } from '../numbered-params.js';
import type { PostgresDb } from './postgres-db.js';

const STEPS = FORGET_STEPS.map((step) => ({ kind: step.kind, statement: numbered(step.postgres) }));

/** Forget-me on the Postgres store: every step (forget-steps.ts) in one transaction. */
export function postgresForget(db: PostgresDb): Pick<ArchiveStore, 'forgetPerson'> {
  return {
    async forgetPerson(request) {
      const params = forgetParams(request);
      return db.transaction('forget a person', async (sql) => {
        const report = emptyReport();
        for (const { kind, statement } of STEPS) {
          const { rowCount } = await sql(statement.text, statement.values(params));
          if (kind) report[kind] += rowCount ?? 0;
        }
        return report;
      });
    },
  };
}
