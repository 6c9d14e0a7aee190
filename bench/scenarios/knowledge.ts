// Knowledge (issue 40): index a folder of mixed documents (Markdown, HTML, PDF, Word, Excel) from disk —
// time, store size, peak RSS — then search 100,000 passages (p50/p95 per search on SQLite, and on Postgres
// when TEST_DATABASE_URL is set), and ask 100 paraphrased questions about facts planted in the documents
// (recall@5 by words alone, and by words and meaning with a scripted embeddings server).
// Run alone: npx tsx bench/scenarios/knowledge.ts [--quick]
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createLogger } from '../../src/core/logger.js';
import { BASE_SCOPE, type KnowledgeStore } from '../../src/core/ports/knowledge-store.js';
import { createKnowledgeIndexer } from '../../src/knowledge/knowledge-indexer.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { parsePostgresUrl } from '../../src/store/postgres/postgres-url.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { makeDocx, makePdf, makeXlsx } from '../../tests/helpers/documents.js';
import { benchEmbeddings } from '../support/knowledge-embedded.js';
import type { ScenarioOptions, ScenarioReport } from '../support/report.js';
import { rng } from './recall.js';

const WORDS = (
  'policy team process review approve request manager budget travel hotel laptop access account deploy ' +
  'release incident escalate rotation weekly quarter report customer contract invoice office remote leave'
).split(' ');

/** Words per section: six sections make a document of about 50 KB, 1,000 of them about 50 MB on disk. */
const SECTION_WORDS = 1400;

/** A planted fact: the sentence in a document, the paraphrased question, and the value the answer needs. */
interface Fact {
  sentence: string;
  question: string;
  value: string;
}

function plantedFacts(): Fact[] {
  return Array.from({ length: 100 }, (_, i) => {
    const code = `KX${1000 + i}`;
    const n = 100 + i * 7;
    return i % 2 === 0
      ? {
          sentence: `Requests for project ${code} must be approved by the finance lead within ${n} hours.`,
          question: `who okays asks for ${code}, and how quickly?`,
          value: `${n} hours`,
        }
      : {
          sentence: `The on-call budget of team ${code} is ${n} EUR per weekend shift.`,
          question: `what does a saturday pager duty for ${code} earn?`,
          value: `${n} EUR`,
        };
  });
}

/** `words` words in sentences of 12 to 24 words. */
const sentences = (random: () => number, words: number) => {
  const out: string[] = [];
  for (let left = words; left > 0; ) {
    const n = Math.min(left, 12 + Math.floor(random() * 13));
    const s = paragraph(random, n);
    out.push(`${s[0]!.toUpperCase()}${s.slice(1)}.`);
    left -= n;
  }
  return out.join(' ');
};

const paragraph = (random: () => number, words: number) =>
  Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');

/** Writes `count` documents (a fifth each Markdown, HTML, PDF, Word, Excel), facts planted one per document. */
async function writeDocuments(dir: string, count: number, facts: readonly Fact[]): Promise<number> {
  const random = rng(7);
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const fact = i < facts.length ? facts[i]!.sentence : '';
    const sections = Array.from({ length: 6 }, (_, s) => ({
      heading: `Section ${s + 1}`,
      // Prose in sentences, as documents are; the fact one of them.
      text: `${sentences(random, SECTION_WORDS)}${s === 3 ? ` ${fact}` : ''}`,
    }));
    const folder = join(dir, `team-${i % 20}`);
    mkdirSync(folder, { recursive: true });
    let file: string;
    let data: Uint8Array | string;
    switch (i % 5) {
      case 0:
        file = `doc-${i}.md`;
        data = sections.map((s) => `## ${s.heading}\n\n${s.text}\n`).join('\n');
        break;
      case 1:
        file = `doc-${i}.html`;
        data = `<html><body>${sections.map((s) => `<h2>${s.heading}</h2><p>${s.text}</p>`).join('')}</body></html>`;
        break;
      case 2:
        file = `doc-${i}.pdf`;
        // Pages of 45 lines, as a page holds them (a longer one would run off its bottom edge).
        data = await makePdf(
          sections.flatMap((s) => {
            const lines = s.text.replace(/(.{1,90})(\s|$)/g, '$1\n').split('\n');
            return Array.from({ length: Math.ceil(lines.length / 45) }, (_, p) =>
              lines.slice(p * 45, p * 45 + 45).join('\n'),
            );
          }),
        );
        break;
      case 3:
        file = `doc-${i}.docx`;
        data = await makeDocx(sections);
        break;
      default:
        file = `doc-${i}.xlsx`;
        data = await makeXlsx({ Sheet1: sections.map((s) => [s.heading, s.text]) });
    }
    writeFileSync(join(folder, file), data);
    bytes += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
  }
  return bytes;
}

/** Fills a store with `files` × 100 synthetic passages (one knowledge base), for search timing. */
async function fillPassages(store: KnowledgeStore, files: number): Promise<void> {
  const random = rng(11);
  for (let f = 0; f < files; f++) {
    const passages = Array.from({ length: 100 }, (_, p) => ({
      heading: `Part ${p}`,
      text: paragraph(random, 120),
    }));
    await store.putKnowledgeFile(
      {
        scope: BASE_SCOPE,
        path: `bulk/file-${f}.md`,
        size: 1000,
        modifiedAt: 0,
        indexedAt: 0,
        passages: 100,
      },
      passages,
    );
  }
}

async function searchTimes(
  store: Pick<KnowledgeStore, 'searchKnowledge'>,
  queries: number,
): Promise<{ p50: number; p95: number }> {
  const random = rng(3);
  const times: number[] = [];
  for (let i = 0; i < queries; i++) {
    const query = `${paragraph(random, 3)} ${WORDS[i % WORDS.length]}`;
    const t = performance.now();
    await store.searchKnowledge([BASE_SCOPE, 'slack:T1:C1'], query, 5);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => Math.round(times[Math.floor(q * (times.length - 1))]! * 100) / 100;
  return { p50: at(0.5), p95: at(0.95) };
}

async function recallAt5(
  store: Pick<KnowledgeStore, 'searchKnowledge'>,
  facts: readonly Fact[],
): Promise<number> {
  let found = 0;
  for (const fact of facts) {
    const hits = await store.searchKnowledge([BASE_SCOPE], fact.question, 5);
    // A PDF's lines break anywhere: "107\nEUR" is the value too.
    if (hits.some((h) => h.text.replace(/\s+/g, ' ').includes(fact.value))) found++;
    else if (process.env.BENCH_VERBOSE)
      console.error(
        'missed',
        fact.question,
        hits.map((h) => h.path),
      );
  }
  return found;
}

/** Runs the scenario. */
export async function run(options: ScenarioOptions): Promise<ScenarioReport> {
  const documents = options.quick ? 100 : 1000;
  const bulkFiles = options.quick ? 100 : 1000;
  const facts = plantedFacts();
  const logger = createLogger({ level: process.env.BENCH_VERBOSE ? 'warn' : 'silent', secrets: [] });
  const rows: (string | number)[][] = [];
  const searchRows: (string | number)[][] = [];
  const dir = mkdtempSync(join(tmpdir(), 'thinkthread-kb-bench-'));
  const data: Record<string, unknown> = {};
  const embeddings = await benchEmbeddings(logger);
  try {
    const docs = join(dir, 'docs');
    const bytes = await writeDocuments(docs, documents, facts);
    const path = join(dir, 'kb.db');
    const store = openSqliteStore(path);
    const indexer = createKnowledgeIndexer({
      dir: docs,
      store,
      limits: { maxBytes: 20_000_000, maxChars: 5_000_000, maxUnpackedBytes: 100_000_000 },
      logger,
    });
    const rssBefore = process.resourceUsage().maxRSS;
    const t = performance.now();
    const report = await indexer.reindex();
    const seconds = Math.round((performance.now() - t) / 100) / 10;
    // Then every passage embedded (one process here plays both bot and embeddings server).
    const t2 = performance.now();
    const embedded = embeddings.wrap(store);
    await embedded.embedded();
    if ((await store.passagesToEmbed(embeddings.model, 1)).length > 0)
      throw new Error('the bench could not embed every passage');
    const withVectors = Math.round((performance.now() - t2) / 100) / 10;
    const passages = (await store.knowledgeFiles(BASE_SCOPE)).reduce((n, f) => n + f.passages, 0);
    const found = await recallAt5(store, facts);
    const foundHybrid = await recallAt5(embedded, facts);
    embedded.stop();
    await store.close();
    const dbMb = Math.round(statSync(path).size / 100_000) / 10;
    const peakMb = Math.round(process.resourceUsage().maxRSS / 1024);
    rows.push([
      documents,
      `${Math.round(bytes / 100_000) / 10} MB`,
      passages,
      `${seconds} s (embeddings: ${withVectors} s more)`,
      `${dbMb} MB`,
      `${peakMb} MB (was ${Math.round(rssBefore / 1024)} MB)`,
      `${found}/100`,
      `${foundHybrid}/100`,
      report.failed,
    ]);
    data.index = {
      documents,
      bytes,
      passages,
      seconds,
      withVectors,
      dbMb,
      peakMb,
      found,
      foundHybrid,
      failed: report.failed,
    };

    const bulkPath = join(dir, 'bulk.db');
    const bulk = openSqliteStore(bulkPath);
    await fillPassages(bulk, bulkFiles);
    const sqliteTimes = await searchTimes(bulk, 200);
    searchRows.push(['SQLite (FTS5 words)', bulkFiles * 100, sqliteTimes.p50, sqliteTimes.p95]);
    data.sqlite = sqliteTimes;
    const bulkEmbedded = embeddings.wrap(bulk);
    await bulkEmbedded.embedded();
    if ((await bulk.passagesToEmbed(embeddings.model, 1)).length > 0)
      throw new Error('the bench could not embed every passage');
    await bulkEmbedded.searchKnowledge([BASE_SCOPE], 'warm up', 5);
    const hybridTimes = await searchTimes(bulkEmbedded, 200);
    searchRows.push([
      'SQLite, words + embeddings (256 dimensions)',
      bulkFiles * 100,
      hybridTimes.p50,
      hybridTimes.p95,
    ]);
    data.sqliteHybrid = hybridTimes;
    bulkEmbedded.stop();
    await bulk.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await embeddings.server.close();
  }
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const schema = 'bench_knowledge';
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      const u = new URL(url);
      u.searchParams.set('schema', schema);
      const store = await openPostgresStore(parsePostgresUrl(u.toString()), { poolSize: 2 });
      try {
        await fillPassages(store, bulkFiles);
        await admin.query(`ANALYZE "${schema}".knowledge_passages`);
        const times = await searchTimes(store, 200);
        searchRows.push(['Postgres (tsvector + GIN), words', bulkFiles * 100, times.p50, times.p95]);
        data.postgres = times;
        const pgEmbeddings = await benchEmbeddings(logger);
        try {
          const embedded = pgEmbeddings.wrap(store);
          await embedded.embedded();
          if ((await store.passagesToEmbed(pgEmbeddings.model, 1)).length > 0)
            throw new Error('the bench could not embed every passage');
          await embedded.searchKnowledge([BASE_SCOPE], 'warm up', 5);
          const hybrid = await searchTimes(embedded, 200);
          searchRows.push([
            'Postgres, words + embeddings (256 dimensions)',
            bulkFiles * 100,
            hybrid.p50,
            hybrid.p95,
          ]);
          data.postgresHybrid = hybrid;
          embedded.stop();
        } finally {
          await pgEmbeddings.server.close();
        }
      } finally {
        await store.close();
      }
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
  }
  const p95s = searchRows.map((r) => Number(r[3]));
  return {
    name: 'knowledge',
    title:
      'Knowledge: indexing mixed documents, searching 100,000 passages, planted facts asked in other words',
    tables: [
      {
        title: 'Indexing a folder (SQLite)',
        columns: [
          'documents',
          'on disk',
          'passages',
          'time',
          'store',
          'peak RSS',
          'recall@5, words',
          'recall@5, words + embeddings',
          'unreadable',
        ],
        rows,
      },
      {
        title: 'search_knowledge, 200 searches',
        columns: ['store', 'passages', 'p50 (ms)', 'p95 (ms)'],
        rows: searchRows,
      },
    ],
    targets: [
      {
        target: 'search_knowledge p95 ≤ 50 ms at 100,000 passages',
        measured: p95s.map((p) => `${p} ms`).join(', '),
        met: options.quick ? null : p95s.every((p) => p <= 50),
      },
      {
        target: 'recall@5 ≥ 95/100 on paraphrased questions with embeddings on',
        measured: `${(data.index as { foundHybrid: number }).foundHybrid} (words alone ${(data.index as { found: number }).found})`,
        met: options.quick ? null : (data.index as { foundHybrid: number }).foundHybrid >= 95,
      },
    ],
    notes: [
      'Questions share the project code with the planted sentence, as people ask, and little else.',
      'Embeddings come from a scripted server (words mapped to concepts, 256 dimensions), not a real model: ' +
        'the figures measure the fusion and its cost, not a model’s quality.',
    ],
    data,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await run({ quick: process.argv.includes('--quick') });
  console.log(JSON.stringify(report.tables, null, 1));
}
