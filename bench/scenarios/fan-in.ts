import type { Assistant } from '../../src/core/assistant.js';
import { createTools } from '../../src/core/tools/registry.js';
import { toolSettingsFrom } from '../../src/core-options.js';
import { testConfig } from '../../tests/helpers/config.js';
import { startBenchCore } from '../support/bench-core.js';
import { startFakeModel } from '../support/fake-model.js';
import type { FanIn } from '../support/fan-in-measure.js';
import { PROMPTS_DIR } from '../support/paths.js';
import type { ScenarioOptions, ScenarioReport, TargetCheck } from '../support/report.js';
import { runFanInChild } from '../support/run-fan-in-child.js';
import { round, since } from '../support/stats.js';

const CHANNELS = 1000;
const MODEL_DELAY_MS = 100;
const ONE_CHANNEL_QUESTIONS = 50;
/** Runs (64 at a time) before measuring, so neither side is timed while still being compiled. */
const WARMUP_RUNS = 256;
/** Issue 19's bounds for the fan-in. */
const TIME_SHARE = 1.1;
const PEAK_RSS_MB = 300;
const LOOP_DELAY_P99_MS = 50;

interface Flood {
  queueBound: number;
  answered: number;
  busy: number;
  inOrder: boolean;
  busyAsExpected: boolean;
  wallMs: number;
}

/**
 * Scenario 3: many channels at once, and one channel flooded. The real core (createCore: SQLite, queue,
 * shipped tools including the sandboxed calculator) against the scripted model in its own process,
 * answering after 100 ms per call; each question takes three calls (two calculator steps and the answer).
 */
export async function run(options: ScenarioOptions): Promise<ScenarioReport> {
  const fake = await startFakeModel({ delayMs: MODEL_DELAY_MS });
  const fans: FanIn[] = [];
  const floods: Flood[] = [];
  let single = Number.NaN;
  let startedRssMb = Number.NaN;
  try {
    // Each fan-in in a fresh process on the compiled code, as `npm start` runs it: the peak RSS is that
    // process's own, and neither side is measured with the TypeScript loader or the other's heap.
    const job = (who: 'core' | 'bare', limit: number, label: string) =>
      runFanInChild({ who, modelUrl: fake.url, channels: CHANNELS, limit, warmupRuns: WARMUP_RUNS, label });
    const target = await job('core', CHANNELS, `thinkthread core, MAX_CONCURRENT_RUNS=${CHANNELS}`);
    single = target.singleMs;
    startedRssMb = target.startedRssMb;
    fans.push(target.fan);
    if (!options.quick) fans.push((await job('core', 16, 'thinkthread core, MAX_CONCURRENT_RUNS=16')).fan);
    fans.push((await job('bare', CHANNELS, 'floor: bare openai loop (streamed, no queue/memory)')).fan);
    for (const f of fans) process.stderr.write(`  fan-in: ${f.label}: ${round(f.wallMs / 1000, 2)} s\n`);

    for (const bound of options.quick ? [5] : [5, ONE_CHANNEL_QUESTIONS]) {
      const bench = await startBenchCore(fake.url, { MAX_QUEUED_PER_CHANNEL: String(bound) });
      try {
        floods.push(await flood(bench.core.assistant, bound));
      } finally {
        await bench.close();
      }
    }
  } finally {
    await fake.close();
  }

  const toolNames = createTools(toolSettingsFrom(testConfig({ PROMPTS_DIR }))).map((t) => t.name);
  const target = fans[0]!;
  const floor = fans.at(-1)!;
  const x = (ms: number) => `${round(ms / single, 1)}×`;
  const targets: TargetCheck[] = [
    {
      target: `${CHANNELS} channels answered within ${TIME_SHARE}× the bare openai loop's time for the same ${CHANNELS} runs (MAX_CONCURRENT_RUNS=${CHANNELS})`,
      measured: `${round(target.wallMs / 1000, 2)} s vs ${round(floor.wallMs / 1000, 2)} s = ${round(target.wallMs / floor.wallMs, 2)}× (CPU per run ${target.cpuMsPerRun} vs ${floor.cpuMsPerRun} ms)`,
      met: target.wallMs <= TIME_SHARE * floor.wallMs,
    },
    {
      target: `peak RSS ≤ ${PEAK_RSS_MB} MB`,
      measured: `${target.processPeakRssMb} MB (${startedRssMb} MB once started, ${target.rssBeforeMb} MB after the warm-up, before the channels arrived)`,
      met: target.processPeakRssMb <= PEAK_RSS_MB,
    },
    {
      target: `event-loop delay p99 ≤ ${LOOP_DELAY_P99_MS} ms while the ${CHANNELS} channels run`,
      measured: `p99 ${target.loopDelayP99Ms} ms, max ${target.loopDelayMaxMs} ms (bare openai loop: p99 ${floor.loopDelayP99Ms} ms)`,
      met: target.loopDelayP99Ms <= LOOP_DELAY_P99_MS,
    },
    {
      target: `every one of the ${CHANNELS} channels answered correctly`,
      measured: fans.map((f) => `${f.correct}/${CHANNELS}`).join(', '),
      met: fans.every((f) => f.correct === CHANNELS),
    },
    ...floods.map((f) => ({
      target: `one channel, ${ONE_CHANNEL_QUESTIONS} questions at once, MAX_QUEUED_PER_CHANNEL=${f.queueBound}: the first ${Math.min(ONE_CHANNEL_QUESTIONS, f.queueBound + 1)} answered in order, the rest told busy`,
      measured: `${f.answered} answered${f.inOrder ? ' in order' : ' OUT OF ORDER'}, ${f.busy} busy`,
      met: f.inOrder && f.busyAsExpected,
    })),
  ];
  return {
    name: 'fan-in',
    title: `3. Fan-in: ${CHANNELS} channels asking at once; one channel receiving ${ONE_CHANNEL_QUESTIONS} questions at once (model: ${MODEL_DELAY_MS} ms per call, 3 calls per question)`,
    tables: [
      {
        columns: [
          'run',
          'wall time',
          '× single run',
          'CPU ms/run',
          'correct',
          'RSS before → max',
          'loop delay p99',
          'max',
        ],
        rows: [
          ['single run (median of 5)', `${round(single / 1000, 3)} s`, '1×', '—', '—', '—', '—', '—'],
          ...fans.map((f) => [
            `${CHANNELS} channels: ${f.label}`,
            `${round(f.wallMs / 1000, 2)} s`,
            x(f.wallMs),
            f.cpuMsPerRun,
            `${f.correct}/${CHANNELS}`,
            f === target ? `${f.rssBeforeMb} → ${f.peakRssMb} MB` : '—',
            `${f.loopDelayP99Ms} ms`,
            `${f.loopDelayMaxMs} ms`,
          ]),
        ],
      },
      {
        columns: ['one channel', 'answered', 'in order', 'busy replies', 'wall time'],
        rows: floods.map((f) => [
          `${ONE_CHANNEL_QUESTIONS} at once, MAX_QUEUED_PER_CHANNEL=${f.queueBound}`,
          f.answered,
          f.inOrder ? 'yes' : 'NO',
          f.busy,
          `${round(f.wallMs / 1000, 2)} s`,
        ]),
      },
    ],
    targets,
    notes: [
      `The real core (createCore) with its shipped tools: the calculator evaluates in one sandboxed child process, one expression at a time; every request carries the ${toolNames.length} tool definitions enabled by default (${toolNames.join(', ')}). The floor sends the same system prompt with the calculator only and evaluates in process. The scripted model runs in its own process.`,
      `MAX_CONCURRENT_RUNS defaults to 16, a deliberate cap on simultaneous runs (provider rate limits); the target is measured with it raised to ${CHANNELS}${options.quick ? '' : ', and the default is shown beside it'}.`,
      'Each fan-in runs in a fresh node process on the compiled code (bundled with esbuild, as `npm start` compiles it): 256 warm-up runs, 5 single runs, then the channels. RSS sampled every 10 ms; the target uses the process peak (getrusage maxRSS). The calculator’s child process is separate. Event-loop delay from perf_hooks.monitorEventLoopDelay (10 ms resolution) while the channels run.',
    ],
    data: { singleRunMs: round(single, 1), fans, floods },
  };
}

/** One channel receives all questions at once: the first ones answered in order, the rest told busy. */
async function flood(assistant: Assistant, bound: number): Promise<Flood> {
  const order: number[] = [];
  const start = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: ONE_CHANNEL_QUESTIONS }, async (_, i) => {
      const text = `Question ${i + 1}`;
      const outcome = await assistant.ask({ key: 'bench:flood', author: 'bench', text }, () => {});
      if (outcome.status === 'answered' && outcome.text === `Answer to: ${text}`) order.push(i);
      return outcome.status;
    }),
  );
  const expectedAnswered = Math.min(ONE_CHANNEL_QUESTIONS, bound + 1);
  const busy = outcomes.filter((s) => s === 'busy').length;
  return {
    queueBound: bound,
    answered: order.length,
    busy,
    inOrder: order.length === expectedAnswered && order.every((v, i) => v === i),
    busyAsExpected: busy === ONE_CHANNEL_QUESTIONS - expectedAnswered,
    wallMs: round(since(start), 0),
  };
}
