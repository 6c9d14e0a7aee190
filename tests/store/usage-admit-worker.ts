// A process racing others on one store (any DATABASE URL): prints "ready", waits for a line on stdin, then
// opens the store at WORKER_DATABASE_URL (or before "ready" with WORKER_OPEN=early), asks WORKER_ASKS times
// under the rule "WORKER_LIMIT asks in all" and prints how many were admitted and how many failed.
import { createInterface } from 'node:readline';
import type { Store } from '../../src/core/ports/store.js';
import { createStore } from '../../src/store/create-store.js';

const url = process.env.WORKER_DATABASE_URL!;
const asks = Number(process.env.WORKER_ASKS ?? 0);
const limit = Number(process.env.WORKER_LIMIT ?? 0);
const at = Date.UTC(2026, 0, 15, 12);
let store: Store | undefined = process.env.WORKER_OPEN === 'early' ? await createStore(url) : undefined;
const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
await new Promise<void>((go) => lines.once('line', () => go()));
store ??= await createStore(url);
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
