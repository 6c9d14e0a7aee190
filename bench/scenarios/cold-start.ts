import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startFakeDiscord } from '../../tests/fakes/discord-server.js';
import { startFakeOpenAI } from '../../tests/fakes/openai-server.js';
import { startFakeSlack } from '../../tests/fakes/slack-server.js';
import { PROMPTS_DIR, REPO_ROOT } from '../support/paths.js';
import type { ScenarioOptions, ScenarioReport } from '../support/report.js';
import { median, round, since } from '../support/stats.js';

const TSX_LOADER = pathToFileURL(join(REPO_ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const ENTRY = join(REPO_ROOT, 'src/index.ts');
/** What `npm start` runs: compiles src/ to dist/ when it changed, then starts dist/index.js in the same process. */
const START = join(REPO_ROOT, 'scripts/start.mjs');
/** The idle bot's resident memory after start, the issue's target. */
const IDLE_RSS_MB = 150;

interface Start {
  /** Milliseconds from spawn to the readiness sign. */
  readyMs: number;
  /** Resident set once ready, and its peak so far (from /proc; NaN where unavailable). */
  rssMb: number;
  peakRssMb: number;
}

interface Case {
  id: string;
  label: string;
  /** Arguments to node, environment, what to write to stdin, and the sign of readiness. */
  start(): {
    args: string[];
    env: Record<string, string>;
    stdin?: string;
    ready: { stream: 'stdout' | 'stderr'; text: string } | 'exit';
  };
}

/**
 * Scenario 5: cold start, process spawn to ready, against `node -e ''` spawned in the same rounds. The bot
 * is started the way `npm start` starts it (node with the tsx loader on src/index.ts), in an empty folder.
 * Terminal chat: until the answer to a piped question is printed (the model answers at once). Discord
 * and Slack: until the bot logs "platform ready" (connected to the fake's gateway / Socket Mode).
 */
export async function run(options: ScenarioOptions): Promise<ScenarioReport> {
  const rounds = options.quick ? 3 : 5;
  const model = await startFakeOpenAI({ fallback: () => ({ content: 'Hello there.' }) });
  const discord = await startFakeDiscord();
  const slack = await startFakeSlack();
  const dir = mkdtempSync(join(tmpdir(), 'thinkthread-cold-'));
  const base = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    NO_COLOR: '1',
    PROMPTS_DIR,
    OPENAI_BASE_URL: model.url,
    WORKSPACE_DIR: dir,
  };
  let n = 0;
  const db = () => ({ DATABASE_URL: `sqlite:${join(dir, `bot-${n++}.db`)}` });
  const cases: Case[] = [
    { id: 'node', label: "node -e ''", start: () => ({ args: ['-e', ''], env: base, ready: 'exit' }) },
    {
      id: 'tsx',
      label: "node --import tsx -e '' (the loader alone)",
      start: () => ({ args: ['--import', TSX_LOADER, '-e', ''], env: base, ready: 'exit' }),
    },
    {
      id: 'terminal',
      label: 'terminal chat: first answer printed',
      start: () => ({
        args: [START],
        env: { ...base, ...db() },
        stdin: 'hi\n',
        ready: { stream: 'stdout', text: 'Hello there.' },
      }),
    },
    {
      id: 'discord',
      label: 'Discord: connected to the fake gateway (idle)',
      start: () => ({
        args: [START],
        env: {
          ...base,
          ...db(),
          LOG_LEVEL: 'info',
          DISCORD_TOKEN: 'fake-discord-token',
          DISCORD_API_URL: discord.apiUrl,
        },
        ready: { stream: 'stderr', text: '"platform ready"' },
      }),
    },
    {
      id: 'slack',
      label: 'Slack: Socket Mode connected to the fake (idle)',
      start: () => ({
        args: [START],
        env: {
          ...base,
          ...db(),
          LOG_LEVEL: 'info',
          SLACK_BOT_TOKEN: 'xoxb-fake-bot-token',
          SLACK_APP_TOKEN: 'xapp-fake-app-token',
          SLACK_API_URL: slack.apiUrl,
        },
        ready: { stream: 'stderr', text: '"platform ready"' },
      }),
    },
  ];

  // How `npm start` ran before it compiled: TypeScript through the tsx loader, to show what the loader costs.
  cases.splice(3, 0, {
    id: 'loader',
    label: 'terminal chat through the tsx loader (npm start before): first answer',
    start: () => ({
      args: ['--import', TSX_LOADER, ENTRY],
      env: { ...base, ...db() },
      stdin: 'hi\n',
      ready: { stream: 'stdout', text: 'Hello there.' },
    }),
  });
  // dist/ is built once here, so no round measures a compile.
  const built = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts/build.mjs')], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('scripts/build.mjs failed');

  const samples = new Map<string, Start[]>(cases.map((c) => [c.id, []]));
  try {
    for (let r = 0; r < rounds + 1; r++) {
      for (const c of cases) {
        const start = await startOnce(c.start(), dir);
        if (r > 0) samples.get(c.id)!.push(start); // the first round warms the disk cache and is dropped
      }
      process.stderr.write(`  cold-start: round ${r + 1}/${rounds + 1} done\n`);
    }
  } finally {
    await model.close();
    await discord.close();
    await slack.close();
    rmSync(dir, { recursive: true, force: true });
  }

  const node = median(samples.get('node')!.map((s) => s.readyMs));
  const rows = cases.map((c) => {
    const s = samples.get(c.id)!;
    const ready = median(s.map((x) => x.readyMs));
    return [
      c.label,
      `${Math.round(ready)} ms`,
      c.id === 'node' ? '1×' : `${round(ready / node, 1)}×`,
      `+${Math.round(ready - node)} ms`,
      megabytes(median(s.map((x) => x.rssMb))),
      megabytes(median(s.map((x) => x.peakRssMb))),
    ];
  });
  const ready = (id: string) => round(median(samples.get(id)!.map((s) => s.readyMs)), 0);
  const rss = (id: string) => round(median(samples.get(id)!.map((s) => s.rssMb)), 0);
  const idle = ['discord', 'slack'].map((id) => ({ id, mb: rss(id) }));
  return {
    name: 'cold-start',
    title: `5. Cold start: spawn to ready (median of ${rounds} rounds, interleaved)`,
    tables: [
      { columns: ['process', 'ready after', "× node -e ''", 'over node', 'RSS at ready', 'peak RSS'], rows },
    ],
    targets: [
      {
        target: "reported beside node -e '' (no numeric target)",
        measured: `terminal ${ready('terminal')} ms (through the tsx loader: ${ready('loader')} ms), Discord ${ready('discord')} ms, Slack ${ready('slack')} ms vs node ${ready('node')} ms (tsx loader alone ${ready('tsx')} ms)`,
        met: null,
      },
      {
        target: `RSS of an idle bot after start ≤ ${IDLE_RSS_MB} MB (Discord and Slack connected, nothing asked yet)`,
        measured: idle.map(({ id, mb }) => `${id} ${mb} MB`).join(', '),
        met: idle.every(({ mb }) => mb <= IDLE_RSS_MB),
      },
    ],
    notes: [
      'Started as `npm start` does: node on scripts/start.mjs, which finds dist/ up to date and imports dist/index.js (the compiled JavaScript), from an empty folder, with a fresh SQLite file each time. The model, Discord and Slack fakes answer at once.',
      'RSS from /proc/<pid>/status (VmRSS, VmHWM) at the moment of readiness; the node -e rows exit before they can be read.',
    ],
    data: Object.fromEntries(
      [...samples].map(([id, s]) => [
        id,
        { readyMs: s.map((x) => round(x.readyMs, 1)), rssMb: s.map((x) => x.rssMb) },
      ]),
    ),
  };
}

/** Spawns once and resolves at the sign of readiness; then stops the process and waits for it to exit. */
async function startOnce(spec: ReturnType<Case['start']>, cwd: string): Promise<Start> {
  const start = performance.now();
  const child: ChildProcess = spawn(process.execPath, spec.args, {
    cwd,
    env: spec.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // The question goes in at once (stdin stays open, so the chat does not exit before it is measured).
  if (spec.stdin !== undefined) child.stdin!.write(spec.stdin);
  let output = { stdout: '', stderr: '' };
  const readyMs = await new Promise<number>((resolve, reject) => {
    if (spec.ready === 'exit') {
      void exited.then(() => resolve(since(start)));
      return;
    }
    const { stream, text } = spec.ready;
    for (const name of ['stdout', 'stderr'] as const) {
      child[name]!.on('data', (d: Buffer) => {
        output = { ...output, [name]: output[name] + d.toString('utf8') };
        if (name === stream && output[name].includes(text)) resolve(since(start));
      });
    }
    void exited.then(() => reject(new Error(`exited before ready:\n${output.stdout}\n${output.stderr}`)));
  });
  const rss = readRss(child.pid);
  // The terminal chat exits when its input ends; the platforms shut down on SIGTERM.
  if (spec.stdin !== undefined) child.stdin!.end();
  else if (spec.ready !== 'exit') child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(killer);
  return { readyMs, ...rss };
}

function megabytes(value: number): string {
  return Number.isNaN(value) ? '—' : `${round(value, 0)} MB`;
}

function readRss(pid: number | undefined): { rssMb: number; peakRssMb: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]);
    return { rssMb: round(kb('VmRSS') / 1024, 1), peakRssMb: round(kb('VmHWM') / 1024, 1) };
  } catch {
    return { rssMb: Number.NaN, peakRssMb: Number.NaN };
  }
}
