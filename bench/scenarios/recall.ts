// Recall (issue 28): a synthetic channel of 20,000 turns over 12 months from 40 speakers with 100 planted
// facts, asked about with paraphrased questions; the "scripted model" calls recall with the question's
// keywords (what the tool's query terms keep of them). Measures recall@5, search latency (p50/p99) and
// archive size on SQLite, and on Postgres when TEST_DATABASE_URL is set; then again at 200,000 turns.
// Run alone: npx tsx bench/scenarios/recall.ts [--quick] [--turns 20000,200000] [--store sqlite|postgres] [--vacuum].
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createLogger } from '../../src/core/logger.js';
import { countTokens } from '../../src/core/memory/tokens.js';
import type { Store } from '../../src/core/ports/store.js';
import { formatHits } from '../../src/core/tools/recall.js';
import { withRecallEmbeddings } from '../../src/knowledge/embedded-recall.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { parsePostgresUrl } from '../../src/store/postgres/postgres-url.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { type FakeEmbeddings, startFakeEmbeddings } from '../../tests/fakes/embeddings-server.js';
import { BENCH_DIMENSIONS, benchEmbedder } from '../support/knowledge-embedded.js';
import type { ScenarioOptions, ScenarioReport } from '../support/report.js';

export const KEY = 'slack:T1:C1';
const YEAR_MS = 365 * 86_400_000;
const T0 = Date.UTC(2025, 0, 1);
const RECALL_MAX_TOKENS = 1500;

/** A seeded random generator, so every run plants the same channel. */
export function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = (
  'deploy release staging prod build test review merge branch ticket sprint meeting lunch coffee team plan ' +
  'date budget number customer invoice report dashboard alert error log server database cache queue api ' +
  'latency timeout config flag feature bug fix patch version update migrate backup restore access token ' +
  'password rotate schedule friday monday tuesday week month quarter roadmap design doc spec draft owner ' +
  'decide agree check ask question answer thanks great sounds good later soon today tomorrow yesterday'
).split(' ');
const SYL = [
  'ka',
  'lo',
  'ven',
  'dri',
  'mar',
  'tes',
  'qu',
  'zor',
  'bel',
  'nix',
  'por',
  'sa',
  'ti',
  'rum',
  'ex',
];

export interface Fact {
  question: string;
  answer: string;
  ask: string;
  value: string;
}

export function facts(random: () => number): Fact[] {
  const out: Fact[] = [];
  const name = () => Array.from({ length: 3 }, () => SYL[Math.floor(random() * SYL.length)]).join('');
  for (let i = 0; i < 100; i++) {
    const project = `${name()}${i}`;
    const n = Math.floor(random() * 90000) + 10000;
    switch (i % 5) {
      case 0:
        out.push({
          question: `When does ${project} go live?`,
          answer: `We decided ${project} launches on 2025-${String((i % 12) + 1).padStart(2, '0')}-14.`,
          ask: `What launch date did we decide for ${project}?`,
          value: `2025-${String((i % 12) + 1).padStart(2, '0')}-14`,
        });
        break;
      case 1:
        out.push({
          question: `What is the ${project} budget cap?`,
          answer: `The ${project} budget cap is ${n} euros per quarter.`,
          ask: `How much budget did ${project} get?`,
          value: String(n),
        });
        break;
      case 2:
        out.push({
          question: `Who owns ${project} now?`,
          answer: `Marisol Ventura owns ${project} from now on.`,
          ask: `Who is the owner of ${project}?`,
          value: 'Marisol Ventura',
        });
        break;
      case 3:
        out.push({
          question: `the ${project} job crashed again, log attached`,
          answer: `It failed with E${project.toUpperCase()}_${n}: the upstream closed the connection.`,
          ask: `What was the error code of the ${project} crash?`,
          value: `E${project.toUpperCase()}_${n}`,
        });
        break;
      default:
        out.push({
          question: `which function parses the ${project} config?`,
          answer: `parse${project[0]!.toUpperCase()}${project.slice(1)}ConfigV${n % 9} in src/${project}/config.ts`,
          ask: `Which function parsed the ${project} config file?`,
          value: `ConfigV${n % 9}`,
        });
    }
  }
  return out;
}

/** Yields the channel's turns in time order, planted facts spread over it, distractors around each. */
function* channel(total: number, random: () => number, planted: Fact[]) {
  const at = new Map<number, Fact>();
  planted.forEach((f, i) => {
    at.set(Math.floor(((i + 0.5) / planted.length) * total), f);
  });
  const sentence = (len: number) =>
    Array.from({ length: len }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
  for (let i = 0; i < total; i++) {
    const createdAt = T0 + Math.floor((i / total) * YEAR_MS);
    const author = `person${Math.floor(random() * 40)}`;
    const fact = at.get(i);
    if (fact) yield { author, question: fact.question, answer: fact.answer, createdAt };
    // Every fact's project is mentioned a few more times without the fact: recall must rank the right one.
    else if (i % 50 === 7) {
      const other = planted[Math.floor(random() * planted.length)]!;
      const project = /(\w+\d+)/.exec(other.question)?.[1] ?? 'x';
      yield {
        author,
        question: `any news on ${project}? ${sentence(6)}`,
        answer: `${project}: ${sentence(12)}`,
        createdAt,
      };
    } else
      yield { author, question: sentence(8 + Math.floor(random() * 10)), answer: sentence(20), createdAt };
  }
}

/** Embeds the whole archive with the scripted embeddings server, then measures recall by words and meaning. */
async function measureEmbedded(server: FakeEmbeddings, store: Store, planted: Fact[]) {
  const start = performance.now();
  const archive = withRecallEmbeddings(
    store,
    benchEmbedder(server),
    createLogger({ level: 'silent', secrets: [] }),
  );
  await archive.embedded();
  const seconds = Math.round((performance.now() - start) / 100) / 10;
  const m = await measure(archive, planted);
  archive.stop();
  return { ...m, seconds };
}

/** The table row of a measure by words and meaning. */
const embeddedRow = (store: string, total: number, e: Awaited<ReturnType<typeof measureEmbedded>>) => [
  `${store}, words + embeddings (${e.seconds} s to embed)`,
  total,
  `${e.found}/100`,
  e.p50,
  e.p99,
  '',
  e.maxTokens,
];

export async function fill(store: Store, total: number, planted: Fact[]) {
  const realNow = Date.now;
  try {
    for (const t of channel(total, rng(7), planted)) {
      Date.now = () => t.createdAt;
      await store.appendTurn(KEY, { author: t.author, question: t.question, answer: t.answer, tokens: 40 });
    }
  } finally {
    Date.now = realNow;
  }
}

export async function measure(store: Pick<Store, 'searchArchive'>, planted: Fact[]) {
  const times: number[] = [];
  const slow: { ms: number; at: string }[] = [];
  let found = 0;
  let maxTokens = 0;
  for (let round = 0; round < 3; round++) {
    for (const fact of planted) {
      const start = performance.now();
      const hits = await store.searchArchive({ key: KEY, query: fact.ask, limit: 5 });
      times.push(performance.now() - start);
      slow.push({
        ms: Math.round((performance.now() - start) * 10) / 10,
        at: `round ${round}, fact ${planted.indexOf(fact)}`,
      });
      if (round === 0) {
        if (hits.some((h) => h.answer.includes(fact.value))) found++;
        maxTokens = Math.max(maxTokens, countTokens(formatHits(hits, RECALL_MAX_TOKENS)));
      }
    }
  }
  times.sort((a, b) => a - b);
  const pct = (p: number) =>
    Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))]! * 100) / 100;
  // The slowest searches, to tell a cold start (first round) from a slow kind of question.
  const slowest = slow.sort((a, b) => b.ms - a.ms).slice(0, 5);
  return { found, p50: pct(0.5), p99: pct(0.99), maxTokens, slowest };
}

/** What a direct run (`npx tsx bench/scenarios/recall.ts`) may choose besides `--quick`. */
export interface RecallOptions {
  /** `--turns 20000,200000`: the channel sizes measured; 20,000 with --quick, both without. */
  sizes?: number[];
  /** `--store sqlite|postgres`: only that store (Postgres needs TEST_DATABASE_URL). */
  store?: 'sqlite' | 'postgres';
  /** `--vacuum`: VACUUM the Postgres archive after filling it, as autovacuum would, before measuring. */
  vacuum?: boolean;
}

export async function run(options: ScenarioOptions & RecallOptions): Promise<ScenarioReport> {
  const planted = facts(rng(42));
  const sizes = options.sizes ?? (options.quick ? [20_000] : [20_000, 200_000]);
  const rows: (string | number)[][] = [];
  const data: Record<string, unknown> = {};
  const embeddings = await startFakeEmbeddings({ dimensions: BENCH_DIMENSIONS });
  try {
    for (const total of sizes) {
      if (options.store !== 'postgres') {
        const dir = mkdtempSync(join(tmpdir(), 'thinkthread-recall-'));
        try {
          const path = join(dir, 'recall.db');
          const store = openSqliteStore(path);
          await fill(store, total, planted);
          const m = await measure(store, planted);
          const kb = Math.round(((statSync(path).size / total) * 1000) / 1024);
          rows.push([
            'SQLite (FTS5 trigram)',
            total,
            `${m.found}/100`,
            m.p50,
            m.p99,
            `${kb} KB`,
            m.maxTokens,
          ]);
          data[`sqlite-${total}`] = { ...m, kbPer1000: kb };
          const e = await measureEmbedded(embeddings, store, planted);
          rows.push(embeddedRow('SQLite', total, e));
          data[`sqlite-embedded-${total}`] = e;
          await store.close();
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }
      const url = process.env.TEST_DATABASE_URL;
      if (url && options.store !== 'sqlite') {
        const schema = `bench_recall_${total}`;
        const u = new URL(url);
        u.searchParams.set('schema', schema);
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        try {
          await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
          const store = await openPostgresStore(parsePostgresUrl(u.toString()), { poolSize: 2 });
          await fill(store, total, planted);
          // --vacuum: as autovacuum leaves a table in production (hint bits set, GIN pending lists merged);
          // without it, as a bulk fill leaves it on a server whose autovacuum is off or has not run yet.
          await admin.query(`${options.vacuum ? 'VACUUM ' : ''}ANALYZE "${schema}".archive`);
          const m = await measure(store, planted);
          const e = await measureEmbedded(embeddings, store, planted);
          await store.close();
          const size = await admin.query<{ b: string }>(
            `SELECT pg_total_relation_size('"${schema}".archive') AS b`,
          );
          const kb = Math.round(((Number(size.rows[0]!.b) / total) * 1000) / 1024);
          rows.push([
            'Postgres (tsvector + GIN, pg_trgm)',
            total,
            `${m.found}/100`,
            m.p50,
            m.p99,
            `${kb} KB`,
            m.maxTokens,
          ]);
          data[`postgres-${total}`] = { ...m, kbPer1000: kb };
          rows.push(embeddedRow('Postgres', total, e));
          data[`postgres-embedded-${total}`] = e;
          await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        } finally {
          await admin.end();
        }
      }
    }
  } finally {
    await embeddings.close();
  }
  // Without recall the model sees the summary and the newest turns only (MEMORY_MAX_TOKENS=2000, 40 tokens
  // a turn: about the last 50 turns); the planted facts are spread over the year.
  const visible = planted.filter((_, i) => Math.floor(((i + 0.5) / 100) * 20_000) >= 20_000 - 50).length;
  type Measured = { found: number; p99: number } | undefined;
  const r20 = data['sqlite-20000'] as Measured;
  const pg20 = data['postgres-20000'] as Measured;
  const pg200 = data['postgres-200000'] as Measured;
  const sqlite200 = data['sqlite-200000'] as Measured;
  return {
    name: 'recall',
    title: 'Recall: planted facts found among the top 5, search latency and archive size',
    tables: [
      {
        columns: [
          'store',
          'turns',
          'recall@5',
          'p50 ms',
          'p99 ms',
          'archive per 1,000 turns',
          'max recall tokens',
        ],
        rows,
      },
    ],
    targets: [
      ...(r20
        ? [
            {
              target: 'recall@5 ≥ 95/100 (SQLite, 20,000 turns)',
              measured: `${r20.found}/100`,
              met: r20.found >= 95,
            },
            {
              target: 'search p99 ≤ 20 ms at 20,000 turns (SQLite)',
              measured: `${r20.p99} ms`,
              met: r20.p99 <= 20,
            },
          ]
        : []),
      ...(pg20
        ? [
            {
              target: 'search p99 ≤ 20 ms at 20,000 turns (Postgres)',
              measured: `${pg20.p99} ms`,
              met: pg20.p99 <= 20,
            },
          ]
        : []),
      ...(sqlite200
        ? [
            {
              target: 'search p99 ≤ 50 ms at 200,000 turns (SQLite)',
              measured: `${sqlite200.p99} ms`,
              met: sqlite200.p99 <= 50,
            },
          ]
        : []),
      ...(pg200
        ? [
            {
              target: 'search p99 ≤ 50 ms at 200,000 turns (Postgres)',
              measured: `${pg200.p99} ms`,
              met: pg200.p99 <= 50,
            },
          ]
        : []),
      ...(['sqlite', 'postgres'] as const).flatMap((engine) => {
        const e = data[`${engine}-embedded-200000`] as Measured;
        return e
          ? [
              {
                target: `recall@5 ≥ 95/100 at 200,000 turns with embeddings (${engine === 'sqlite' ? 'SQLite' : 'Postgres'})`,
                measured: `${e.found}/100`,
                met: e.found >= 95,
              },
            ]
          : [];
      }),
    ],
    notes: [
      'Embeddings come from a scripted server (words mapped to concepts, 256 dimensions), not a real model.',
      `Without recall, ${visible} of the 100 facts are among the verbatim turns the model still sees; the summary keeps the gist (600 tokens), not 100 exact values.`,
      'Database sizes include the turns table for SQLite (the whole file) and only the archive with its indexes for Postgres.',
    ],
    data,
  };
}

if (process.argv[1]?.endsWith('recall.ts')) {
  const flag = (name: string) => {
    const i = process.argv.indexOf(name);
    return i === -1 ? undefined : process.argv[i + 1];
  };
  const turns = flag('--turns');
  const store = flag('--store');
  const report = await run({
    quick: process.argv.includes('--quick'),
    sizes: turns ? turns.split(',').map(Number) : undefined,
    store: store === 'sqlite' || store === 'postgres' ? store : undefined,
    vacuum: process.argv.includes('--vacuum'),
  });
  console.log(JSON.stringify(report.data, null, 1));
  console.log(JSON.stringify(report.tables, null, 1), report.notes, report.targets);
}
