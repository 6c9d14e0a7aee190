// One replica of the schedules scenario in a process of its own: the real store and scheduler on the real
// clock and poll, reporting each run it starts to the parent (batched), until the parent says stop.
import type { SystemRunDelivery } from '../../src/core/ports/system-run-delivery.js';
import { createScheduler } from '../../src/core/schedules/create-scheduler.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { parsePostgresUrl } from '../../src/store/postgres/postgres-url.js';

const [url, owner] = process.argv.slice(2) as [string, string];
const store = await openPostgresStore(parsePostgresUrl(url, 'BENCH_DATABASE_URL'));
let pending: { id: string; at: number }[] = [];
const flush = () => {
  if (pending.length === 0) return;
  process.send?.({ type: 'runs', runs: pending });
  pending = [];
};
const flusher = setInterval(flush, 50);
const delivery: SystemRunDelivery = {
  async deliver(run) {
    if (run.why.kind === 'schedule') pending.push({ id: run.why.schedule.id, at: Date.now() });
  },
  async tell() {},
};
const scheduler = createScheduler({ store, owner, catchUpMs: 3_600_000, allowed: async () => true });
scheduler.start({ discord: delivery, slack: delivery });
process.send?.({ type: 'ready' });
process.on('message', async (m: { type: string }) => {
  if (m.type !== 'stop') return;
  await scheduler.stop();
  clearInterval(flusher);
  flush();
  await store.close();
  process.send?.({ type: 'stopped' }, () => process.exit(0));
});
