// A process racing others for one rate limit: opens the SQLite store at WORKER_DB, prints "ready", waits
// for a line on stdin, then asks WORKER_ASKS times under the rule "WORKER_LIMIT asks in all" and prints
// how many were admitted and how many failed.
import { createInterface } from 'node:readline';
import { openSqliteStore } from '../../src/store/sqlite-store.js';

const store = openSqliteStore(process.env.WORKER_DB!);
const asks = Number(process.env.WORKER_ASKS);
const limit = Number(process.env.WORKER_LIMIT);
const at = Date.UTC(2026, 0, 15, 12);
const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
await new Promise<void>((go) => lines.once('line', () => go()));
let admitted = 0;
let failed = 0;
for (let i = 0; i < asks; i++) {
  try {
    const a = await store.admit(
      {
        at,
        platform: 'console',
        key: `worker:${process.pid}`,
        userId: `${i}`,
        model: 'm',
        protocol: 'tools',
      },
      { rates: [{ name: 'RATE', scope: 'all', limit, windowMs: 3_600_000 }], budgets: [] },
    );
    if (a.admitted) admitted++;
  } catch {
    failed++;
  }
}
lines.close();
await store.close();
process.stdout.write(`${JSON.stringify({ admitted, failed })}\n`);
