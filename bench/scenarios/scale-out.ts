import pg from 'pg';
import type { RunQueue } from '../../src/core/ports/run-queue.js';
import { createStore } from '../../src/store/create-store.js';
import { type Coordination, openCoordination } from '../../src/store/open-coordination.js';
import type { ScenarioOptions, ScenarioReport, TargetCheck } from '../support/report.js';
import { percentile, round } from '../support/stats.js';

const LIMITS = { MAX_CONCURRENT_RUNS: 16, MAX_QUEUED_PER_CHANNEL: 1000 };

interface Gate {
  promise: Promise<void>;
  open(): void;
}
function gate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((r) => {
    open = r;
  });
  return { promise, open };
}

const summary = (label: string, samples: number[]) => [
  label,
  samples.length,
  round(percentile(samples, 50)),
  round(percentile(samples, 99)),
  round(Math.max(...samples)),
];

/**
 * Scenario: the line of questions shared by replicas on Postgres (BENCH_DATABASE_URL, else
 * TEST_DATABASE_URL). Three replicas' queues, each with its own held session and pool as in three
 * processes: pickup (event admitted → run starts) in an idle channel, hand-off (a run ends on one replica →
 * the next question of the channel starts on another, through NOTIFY), and how fast a dead replica's
 * channel is freed (its session ends, as Postgres sees a kill -9 → the waiting question starts elsewhere).
 */
export async function run(options: ScenarioOptions): Promise<ScenarioReport> {
  const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!base) {
    return {
      name: 'scale-out',
      title: 'Scale-out: the shared line of questions on Postgres',
      tables: [],
      targets: [
        { target: 'pickup p50 < 50 ms', measured: 'not measured (no BENCH_DATABASE_URL)', met: null },
      ],
      notes: ['Set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a Postgres database to run this scenario.'],
      data: null,
    };
  }
  const schema = `bench_${Date.now().toString(36)}`;
  const u = new URL(base);
  u.searchParams.set('schema', schema);
  const url = u.toString();
  const store = await createStore(url);
  const replicas: Coordination[] = [];
  for (let i = 0; i < 3; i++) replicas.push(await openCoordination(url, { limits: LIMITS }));
  const queues = replicas.map((r) => r.queue!) as RunQueue[];
  const rounds = options.quick ? 50 : 300;
  let delivery = 0;

  try {
    // Pickup: a question admitted in an idle channel starts (admission, queueing and the turn check).
    const pickup: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const queue = queues[i % 3]!;
      const t0 = performance.now();
      const arrival = await queue.arrive(`idle:${i}`, 'bench', [`d${++delivery}`]);
      let t1 = 0;
      await queue.run(
        `idle:${i}`,
        async () => {
          t1 = performance.now();
        },
        undefined,
        arrival,
      );
      pickup.push(t1 - t0);
    }

    // Hand-off: the next question waits on another replica; it starts when the running one ends.
    const handoff: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const [a, b] = [queues[i % 3]!, queues[(i + 1) % 3]!];
      const key = `busy:${i}`;
      const hold = gate();
      const started = gate();
      const first = a.run(key, async () => {
        started.open();
        await hold.promise;
      });
      await started.promise;
      let t1 = 0;
      const second = b.run(key, async () => {
        t1 = performance.now();
      });
      while (b.waiting() === 0) await new Promise((r) => setImmediate(r));
      // Its turn check has run once and found the channel busy: it now waits for the NOTIFY.
      await new Promise((r) => setTimeout(r, 5));
      const t0 = performance.now();
      hold.open();
      await Promise.all([first, second]);
      handoff.push(t1 - t0);
    }

    // A dead replica: its held session ends while it runs; the question behind it starts on a survivor.
    const freed: number[] = [];
    const deaths = options.quick ? 3 : 8;
    for (let i = 0; i < deaths; i++) {
      const dying = await openCoordination(url, { limits: LIMITS });
      const key = `dead:${i}`;
      const started = gate();
      void dying.queue!.run(key, async () => {
        started.open();
        await new Promise(() => undefined);
      });
      await started.promise;
      let t1 = 0;
      const next = queues[i % 3]!.run(key, async () => {
        t1 = performance.now();
      });
      while (queues[i % 3]!.waiting() === 0) await new Promise((r) => setImmediate(r));
      const t0 = performance.now();
      await dying.close();
      await next;
      freed.push(t1 - t0);
    }

    const targets: TargetCheck[] = [
      {
        target: 'pickup p50 < 50 ms (event admitted → run starts)',
        measured: `${round(percentile(pickup, 50))} ms`,
        met: percentile(pickup, 50) < 50,
      },
      {
        target: 'hand-off p50 < 50 ms (run ends on one replica → next starts on another)',
        measured: `${round(percentile(handoff, 50))} ms`,
        met: percentile(handoff, 50) < 50,
      },
      {
        target: 'dead replica’s channel freed < 30 s',
        measured: `${round(Math.max(...freed))} ms at most`,
        met: Math.max(...freed) < 30_000,
      },
    ];
    return {
      name: 'scale-out',
      title:
        'Scale-out: the shared line of questions on Postgres (3 replicas, advisory locks + LISTEN/NOTIFY)',
      tables: [
        {
          columns: ['measure (ms)', 'n', 'p50', 'p99', 'max'],
          rows: [
            summary('pickup', pickup),
            summary('hand-off', handoff),
            summary('dead replica freed', freed),
          ],
        },
      ],
      targets,
      notes: [
        'Freed time is bounded by the sweep interval (2 s): Postgres frees the dead session’s locks at once, and each replica looks for orphaned questions every 2 s.',
        'Over a network, Postgres learns of a vanished host only through TCP keepalive; a killed process on a live host closes its socket at once.',
      ],
      data: { pickup, handoff, freed },
    };
  } finally {
    for (const r of replicas) await r.close();
    await store.close();
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
}
