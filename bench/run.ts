// `npm run bench [-- --quick] [scenario ...]`: runs each scenario in its own process against local fakes,
// prints the tables and target checks, and writes bench/results/local/latest.json (and latest.md), which git
// ignores; `--record` writes the committed bench/results/latest.json instead.
import { fork } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { formatTable, markdownTable, type ScenarioOptions, type ScenarioReport } from './support/report.js';

/** Every scenario, in the order they run; names are the files in bench/scenarios. */
const SCENARIOS = [
  'loop-overhead',
  'memory-growth',
  'fan-in',
  'platform-pacing',
  'cold-start',
  'react-parser',
  'long-answer',
  'prompt-cache',
  'scale-out',
  'scale-out-fleet',
  'recall',
  'schedules',
  'admin-stats',
  'tracing',
  'injection',
  'knowledge',
] as const;

const args = process.argv.slice(2);
const options: ScenarioOptions = { quick: args.includes('--quick') };
const unknown = args.filter((a) => !a.startsWith('--') && !SCENARIOS.includes(a as never));
if (unknown.length > 0 || args.includes('--help')) {
  process.stderr.write(
    `${unknown.length ? `unknown scenario: ${unknown.join(', ')}\n` : ''}usage: npm run bench -- [--quick] [--record] [${SCENARIOS.join(' | ')} ...]\n`,
  );
  process.exit(unknown.length ? 1 : 0);
}
const selected = SCENARIOS.filter(
  (s) => args.length === 0 || args.includes(s) || args.every((a) => a.startsWith('--')),
);

// A run leaves tracked files alone unless it is asked to record its figures.
const resultsDir = fileURLToPath(
  new URL(args.includes('--record') ? './results/' : './results/local/', import.meta.url),
);
const jsonPath = `${resultsDir}latest.json`;

function runScenario(name: string): Promise<ScenarioReport> {
  return new Promise((resolve, reject) => {
    const child = fork(
      fileURLToPath(new URL('./support/run-scenario.ts', import.meta.url)),
      [name, JSON.stringify(options)],
      {
        // --expose-gc: loop-overhead collects the heap around each batch it times (see sustain).
        execArgv: ['--import', 'tsx', '--expose-gc'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    let report: ScenarioReport | undefined;
    child.on('message', (m: { type: string; report: ScenarioReport }) => {
      if (m.type === 'report') report = m.report;
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (report) resolve(report);
      else reject(new Error(`scenario ${name} exited with code ${code} and no report`));
    });
  });
}

const started = performance.now();
const reports: ScenarioReport[] = [];
let failed = false;
for (const name of selected) {
  process.stderr.write(`running ${name}${options.quick ? ' (quick)' : ''}…\n`);
  const t = performance.now();
  try {
    const report = await runScenario(name);
    reports.push(report);
    process.stdout.write(`\n${report.title}\n\n`);
    for (const table of report.tables) process.stdout.write(`${formatTable(table)}\n\n`);
    for (const check of report.targets) {
      const mark = check.met === null ? 'n/a ' : check.met ? 'MET ' : 'MISS';
      process.stdout.write(`  [${mark}] ${check.target}: ${check.measured}\n`);
    }
    for (const note of report.notes) process.stdout.write(`  - ${note}\n`);
    process.stderr.write(`${name} took ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
  } catch (err) {
    failed = true;
    process.stderr.write(`${name} failed: ${err instanceof Error ? err.message : String(err)}\n`);
  }
}

// Scenarios run on their own replace their entry; the others keep their last recorded figures.
type Results = {
  machine: Record<string, unknown>;
  scenarios: Record<string, ScenarioReport & { recordedAt: string; quick: boolean }>;
};
const previous: Results | undefined = existsSync(jsonPath)
  ? JSON.parse(readFileSync(jsonPath, 'utf8'))
  : undefined;
const recordedAt = new Date().toISOString();
const results: Results = {
  machine: {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGB: Math.round(totalmem() / 1024 ** 3),
  },
  scenarios: { ...previous?.scenarios },
};
for (const report of reports)
  results.scenarios[report.name] = { ...report, recordedAt, quick: options.quick };
mkdirSync(resultsDir, { recursive: true });
writeFileSync(jsonPath, `${JSON.stringify(results, null, 2)}\n`);

const markdown = SCENARIOS.flatMap((name) => {
  const r = results.scenarios[name];
  if (!r) return [];
  const checks = r.targets.map(
    (c) => `- ${c.met === null ? '➖' : c.met ? '✅' : '❌'} ${c.target}: **${c.measured}**`,
  );
  return [
    `### ${r.title}`,
    '',
    ...r.tables.flatMap((t) => [...(t.title ? [`**${t.title}**`, ''] : []), markdownTable(t), '']),
    ...checks,
    '',
    ...r.notes.map((n) => `- ${n}`),
    '',
  ];
});
writeFileSync(`${resultsDir}latest.md`, `${markdown.join('\n')}\n`);
process.stderr.write(`\nwrote ${jsonPath} in ${((performance.now() - started) / 1000).toFixed(0)} s total\n`);
process.exit(failed ? 1 : 0);
