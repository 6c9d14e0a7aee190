// Scheduled questions (issue 31): 10,000 schedules due in the same minute fired by three replicas on
// Postgres (BENCH_DATABASE_URL, else TEST_DATABASE_URL), none twice and none missed, and how long after the
// minute the first and last run start; then the idle cost of 100,000 stored schedules (claim queries a
// minute, their latency, and the CPU the polling replica spends) on Postgres and on SQLite.
// Run alone: npx tsx bench/support/run-scenario.ts schedules '{"quick":true}'.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Schedule, ScheduleStore } from '../../src/core/ports/schedule-store.js';
import type { Store } from '../../src/core/ports/store.js';
import type { SystemRunDelivery } from '../../src/core/ports/system-run-delivery.js';
import {
  createScheduler,
  SCHEDULE_POLL_MS,
  type Scheduler,
} from '../../src/core/schedules/create-scheduler.js';
import { openPostgresImport } from '../../src/store/postgres/postgres-import.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { parsePostgresUrl } from '../../src/store/postgres/postgres-url.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { ScenarioOptions, ScenarioReport, TargetCheck } from '../support/report.js';
import { cpuMsSince, percentile, round } from '../support/stats.js';

const MINUTE = 60_000;

/** `n` schedules of `people` creators in Discord and Slack channels, due at `at(i)`. */
function schedules(n: number, at: (i: number) => number, people = 1000): Schedule[] {
  return Array.from({ length: n }, (_, i) => {
    const platform = i % 2 ? 'slack' : 'discord';
    const user = `u${i % people}`;
    const key = `${platform}:g${i % 50}:c${i % 500}`;
    return {
      id: `b${i.toString(36).padStart(7, '0')}`,
      key,
      settingsKey: key,
      creator: {
        platform,
        userId: user,
        principal: `${platform}:${user}`,
        channelId: `c${i % 500}`,
        dm: false,
        name: user,
      },
      question: `scheduled question ${i}`,
      cron: i % 3 ? '*/10 * * * *' : null,
      timezone: 'Europe/Berlin',
      nextAt: at(i),
      paused: false,
      createdAt: Date.now(),
    };
  });
}

/** The store with its claim queries counted and timed. */
function counted(store: Store): { store: ScheduleStore; claims: number[] } {
  const claims: number[] = [];
  return {
    claims,
    store: new Proxy(store, {
      get(target, prop, receiver) {
        if (prop !== 'claimDueSchedules') return Reflect.get(target, prop, receiver);
        return async (request: Parameters<ScheduleStore['claimDueSchedules']>[0]) => {
          const t = performance.now();
          try {
            return await target.claimDueSchedules(request);
          } finally {
            claims.push(performance.now() - t);
          }
        };
      },
    }),
  };
}

/** A replica's scheduler on the real clock and poll, delivering to `onRun`. */
function replica(store: ScheduleStore, owner: string, onRun: (s: Schedule) => void): Scheduler {
  const scheduler = createScheduler({ store, owner, catchUpMs: 3_600_000, allowed: async () => true });
  const delivery: SystemRunDelivery = {
    async deliver(run) {
      if (run.why.kind === 'schedule') onRun(run.why.schedule);
    },
    async tell() {},
  };
  scheduler.start({ discord: delivery, slack: delivery });
  return scheduler;
}

/** A replica in a process of its own (see schedules-replica-child.ts). */
function replicaProcess(url: string, owner: string, onRuns: (runs: { id: string; at: number }[]) => void) {
  const child = fork(
    fileURLToPath(new URL('../support/schedules-replica-child.ts', import.meta.url)),
    [url, owner],
    {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const ready = new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.on('message', (m: { type: string; runs?: { id: string; at: number }[] }) => {
      if (m.type === 'ready') resolve();
      if (m.type === 'runs' && m.runs) onRuns(m.runs);
    });
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      child.on('message', (m: { type: string }) => {
        if (m.type === 'stopped') resolve();
      });
      child.once('exit', () => resolve());
      child.send({ type: 'stop' });
    });
  return { ready, stop };
}

async function burst(url: string, count: number) {
  const target = parsePostgresUrl(url, 'BENCH_DATABASE_URL');
  // Migrates the schema before the replicas start.
  const store = await openPostgresStore(target);
  const fired = new Map<string, number>();
  let duplicates = 0;
  const starts: number[] = [];
  let minute = Number.POSITIVE_INFINITY;
  let done: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    done = resolve;
  });
  const perReplica = [0, 0, 0];
  const replicas = [0, 1, 2].map((r) =>
    replicaProcess(url, `bench-${r}`, (runs) => {
      for (const run of runs) {
        if (fired.has(run.id)) duplicates++;
        fired.set(run.id, (fired.get(run.id) ?? 0) + 1);
        perReplica[r]!++;
        starts.push(run.at - minute);
      }
      if (fired.size === count) done();
    }),
  );
  await Promise.all(replicas.map((r) => r.ready));
  minute = Math.ceil((Date.now() + 5_000) / MINUTE) * MINUTE;
  const sink = await openPostgresImport(target);
  const all = schedules(count, () => minute);
  for (let i = 0; i < all.length; i += 5_000) await sink.schedules(all.slice(i, i + 5_000));
  await sink.close();
  const timeout = setTimeout(done, minute - Date.now() + 2 * MINUTE);
  await finished;
  clearTimeout(timeout);
  await Promise.all(replicas.map((r) => r.stop()));
  const left = (await store.allSchedules()).filter((s) => s.nextAt <= minute).length;
  await store.close();
  starts.sort((a, b) => a - b);
  return {
    count,
    fired: fired.size,
    duplicates,
    left,
    first: starts[0] ?? NaN,
    last: starts.at(-1) ?? NaN,
    perReplica,
  };
}

async function idle(
  store: Store,
  count: number,
  seconds: number,
  insert: (all: Schedule[]) => Promise<void>,
) {
  const now = Date.now();
  // Spread over the next year: nothing is due while the replica polls.
  await insert(schedules(count, (i) => now + 10 * MINUTE + ((i * 7919) % 525_600) * MINUTE));
  const { store: watched, claims } = counted(store);
  // What the insert left behind is collected first, so the CPU measured is the polling's.
  (globalThis as { gc?: () => void }).gc?.();
  const cpu = process.cpuUsage();
  const t = performance.now();
  const scheduler = replica(watched, 'bench-idle', () => {});
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  await scheduler.stop();
  const elapsedMin = (performance.now() - t) / MINUTE;
  return {
    schedules: count,
    queriesPerMinute: round(claims.length / elapsedMin, 1),
    claimP50: round(percentile(claims, 50), 2),
    claimP99: round(percentile(claims, 99), 2),
    cpuMsPerMinute: round(cpuMsSince(cpu) / elapsedMin, 1),
  };
}

export async function run(options: ScenarioOptions): Promise<ScenarioReport> {
  const burstCount = options.quick ? 1_000 : 10_000;
  const idleCount = options.quick ? 10_000 : 100_000;
  const idleSeconds = options.quick ? 10 : 60;
  const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const notes = [
    `Replicas poll every ${SCHEDULE_POLL_MS} ms; each poll is one claim query (an index range scan on next_at), and claims 500 due runs at a time with FOR UPDATE SKIP LOCKED.`,
    'Each replica is a process of its own with its own pool; a run is counted (by its replica’s clock) when it is handed to its platform.',
  ];
  const targets: TargetCheck[] = [];
  const rows: (string | number)[][] = [];
  const idleRows: (string | number)[][] = [];
  let burstResult: Awaited<ReturnType<typeof burst>> | undefined;

  const dir = mkdtempSync(join(tmpdir(), 'thinkthread-bench-schedules-'));
  try {
    const sqlite = openSqliteStore(join(dir, 'bot.db'));
    try {
      const figures = await idle(sqlite, idleCount, idleSeconds, async (all) => {
        for (const s of all) await sqlite.addSchedule(s, Number.MAX_SAFE_INTEGER);
      });
      idleRows.push([
        'SQLite',
        figures.schedules,
        figures.queriesPerMinute,
        figures.claimP50,
        figures.claimP99,
        figures.cpuMsPerMinute,
      ]);
    } finally {
      await sqlite.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  if (!base) {
    notes.push(
      'Set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a Postgres database to run the three-replica burst.',
    );
    targets.push({
      target: `${burstCount} runs due in one minute fire once each`,
      measured: 'not measured (no Postgres)',
      met: null,
    });
  } else {
    const schemas: string[] = [];
    const urlFor = () => {
      const schema = `bench_sched_${Date.now().toString(36)}_${schemas.length}`;
      schemas.push(schema);
      const u = new URL(base);
      u.searchParams.set('schema', schema);
      return u.toString();
    };
    try {
      burstResult = await burst(urlFor(), burstCount);
      const b = burstResult;
      rows.push(
        ['schedules due at the minute', b.count],
        ['runs fired', b.fired],
        ['fired twice', b.duplicates],
        ['missed (still due)', b.left],
        ['first run after the minute (ms)', b.first],
        ['last run after the minute (ms)', b.last],
        ['runs per replica', b.perReplica.join(' / ')],
      );
      targets.push(
        {
          target: `${b.count} runs, none twice, none missed`,
          measured: `${b.fired} fired, ${b.duplicates} twice, ${b.left} missed`,
          met: b.fired === b.count && b.duplicates === 0 && b.left === 0,
        },
        { target: 'first run within 1 s of the minute', measured: `${b.first} ms`, met: b.first <= 1000 },
      );
      const url = urlFor();
      const store = await openPostgresStore(parsePostgresUrl(url, 'BENCH_DATABASE_URL'));
      try {
        const sink = await openPostgresImport(parsePostgresUrl(url, 'BENCH_DATABASE_URL'));
        const figures = await idle(store, idleCount, idleSeconds, async (all) => {
          for (let i = 0; i < all.length; i += 5_000) await sink.schedules(all.slice(i, i + 5_000));
        });
        await sink.close();
        idleRows.unshift([
          'Postgres',
          figures.schedules,
          figures.queriesPerMinute,
          figures.claimP50,
          figures.claimP99,
          figures.cpuMsPerMinute,
        ]);
      } finally {
        await store.close();
      }
    } finally {
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
  }
  return {
    name: 'schedules',
    title: 'Scheduled questions: a minute’s burst across replicas, and the idle cost of stored schedules',
    tables: [
      ...(rows.length
        ? [{ title: `Burst on Postgres, 3 replicas`, columns: ['measure', 'value'], rows }]
        : []),
      {
        title: `Idle: ${idleCount.toLocaleString('en')} stored schedules, none due, one replica polling for ${idleSeconds} s`,
        columns: [
          'store',
          'schedules',
          'claim queries / min',
          'claim p50 (ms)',
          'claim p99 (ms)',
          'CPU ms / min',
        ],
        rows: idleRows,
      },
    ],
    targets,
    notes,
    data: { burst: burstResult, idle: idleRows },
  };
}
