// One replica of the schedules scenario in a process of its own: the real store and scheduler on the real
// clock and poll, reporting each run it starts to the parent (batched), until the parent says stop.
import type { Schedule } from '../../src/core/ports/schedule-store.js';
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
const deliverer = {
  async deliverScheduled(run: { schedule: Schedule }) {
    pending.push({ id: run.schedule.id, at: Date.now() });
  },
  async tellScheduleCreator() {},
};
const scheduler = createScheduler({ store, owner, catchUpMs: 3_600_000, allowed: async () => true });
scheduler.start({ discord: deliverer, slack: deliverer });
process.send?.({ type: 'ready' });
process.on('message', async (m: { type: string }) => {
  if (m.type !== 'stop') return;
  await scheduler.stop();
  clearInterval(flusher);
  flush();
  await store.close();
  process.send?.({ type: 'stopped' }, () => process.exit(0));
});
