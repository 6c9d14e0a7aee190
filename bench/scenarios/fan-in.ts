import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Assistant } from '../../src/core/assistant.js';
import { getPrompt, loadPrompts, renderPrompt } from '../../src/core/prompts.js';
import { createTools } from '../../src/core/tools/registry.js';
import { toolSettingsFrom } from '../../src/core-options.js';
import { testConfig } from '../../tests/helpers/config.js';
import { arithmeticFor, isCorrect, questionText } from '../support/arithmetic.js';
import { startBenchCore } from '../support/bench-core.js';
import { startFakeModel } from '../support/fake-model.js';
import { PROMPTS_DIR } from '../support/paths.js';
import type { ScenarioOptions, ScenarioReport, TargetCheck } from '../support/report.js';
import { cpuMsSince, mb, median, pool, round, since } from '../support/stats.js';

const CHANNELS = 1000;
const MODEL_DELAY_MS = 100;
const ONE_CHANNEL_QUESTIONS = 50;
/** Runs (64 at a time) before measuring, so neither side is timed while still being compiled. */
const WARMUP_RUNS = 256;

interface FanIn {
  label: string;
  wallMs: number;
  correct: number;
  rssBeforeMb: number;
  /** Highest RSS sampled while the channels ran. */
  peakRssMb: number;
  /** The process's peak RSS so far (getrusage), which includes everything before. */
  processPeakRssMb: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  /** This process's CPU time per run while the channels ran. */
  cpuMsPerRun: number;
}

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
  try {
    // Peak RSS is per process: the target run goes first, before anything else has grown the heap.
    const limits = options.quick ? [CHANNELS] : [CHANNELS, 16];
    for (const limit of limits) {
      const bench = await startBenchCore(fake.url, { MAX_CONCURRENT_RUNS: String(limit) });
      try {
        const ask = askThrough(bench.core.assistant);
        // Warm-up (JIT, calculator process, connections), then the single-run time the fan-in is compared with.
        await pool(WARMUP_RUNS, 64, (i) => ask(`bench:warmup:${i}`, i).then(() => {}));
        if (Number.isNaN(single)) {
          const times: number[] = [];
          for (let i = 0; i < 5; i++) {
            const start = performance.now();
            await ask(`bench:single:${i}`, i);
            times.push(since(start));
          }
          single = median(times);
        }
        fans.push(
          await fanIn(`thinkthread core, MAX_CONCURRENT_RUNS=${limit}`, (i) => ask(`bench:fan:${i}`, i)),
        );
      } finally {
        await bench.close();
      }
    }

    // The floor: the bare openai loop, 1,000 runs at once with nothing around them. Loaded only now, so
    // its in-process calculator (mathjs, ~100 MB) does not count in the core's peak RSS above.
    const { createBareOpenAI } = await import('../contenders/bare-openai.js');
    const systemPrompt = renderPrompt(getPrompt(loadPrompts(PROMPTS_DIR), 'system-tools'), {
      date: 'Sunday, 29 November 2026 (UTC)',
      tool_names: 'calculator',
    });
    const bare = createBareOpenAI({ url: fake.url, stream: true, systemPrompt });
    await pool(WARMUP_RUNS, 64, (i) => bare.ask(questionText(arithmeticFor(i))).then(() => {}));
    fans.push(
      await fanIn('floor: bare openai loop (streamed, no queue/memory)', async (i) => {
        const question = arithmeticFor(i);
        return isCorrect(await bare.ask(questionText(question)), question);
      }),
    );

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
      target: `${CHANNELS} runs within 3× a single run (MAX_CONCURRENT_RUNS=${CHANNELS})`,
      measured: `${round(target.wallMs / 1000, 2)} s vs ${round(single / 1000, 2)} s single = ${x(target.wallMs)} (bare openai loop: ${x(floor.wallMs)})`,
      met: target.wallMs <= 3 * single,
    },
    {
      target: 'peak RSS ≤ 300 MB',
      measured: `${target.processPeakRssMb} MB (${target.rssBeforeMb} MB before the channels arrived)`,
      met: target.processPeakRssMb <= 300,
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
      'RSS is shown for the first run only (a process does not hand memory back, so later rows would show the first one’s heap): sampled every 10 ms; the target uses the process peak (getrusage maxRSS). The calculator’s child process is separate. Event-loop delay from perf_hooks.monitorEventLoopDelay (10 ms resolution) while the channels run.',
    ],
    data: { singleRunMs: round(single, 1), fans, floods },
  };
}

function askThrough(assistant: Assistant) {
  return async (key: string, i: number): Promise<boolean> => {
    const question = arithmeticFor(i);
    const outcome = await assistant.ask({ key, author: 'bench', text: questionText(question) }, () => {});
    return outcome.status === 'answered' && isCorrect(outcome.text, question);
  };
}

/** Runs `ask(i)` for every channel at once; wall time, answers, memory and event-loop delay. */
async function fanIn(label: string, ask: (i: number) => Promise<boolean>): Promise<FanIn> {
  const rssBefore = process.memoryUsage.rss();
  // Sampled, because the process's own peak (maxRSS) only ever grows across the runs of this scenario.
  let rssMax = rssBefore;
  const sampler = setInterval(() => {
    rssMax = Math.max(rssMax, process.memoryUsage.rss());
  }, 10);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const cpu = process.cpuUsage();
  const start = performance.now();
  const results = await Promise.all(Array.from({ length: CHANNELS }, (_, i) => ask(i)));
  const wallMs = since(start);
  const cpuMs = cpuMsSince(cpu);
  delay.disable();
  clearInterval(sampler);
  process.stderr.write(`  fan-in: ${label}: ${round(wallMs / 1000, 2)} s\n`);
  return {
    label,
    wallMs: round(wallMs, 0),
    correct: results.filter(Boolean).length,
    rssBeforeMb: mb(rssBefore),
    peakRssMb: mb(Math.max(rssMax, process.memoryUsage.rss())),
    processPeakRssMb: round(process.resourceUsage().maxRSS / 1024, 1),
    loopDelayP99Ms: round(delay.percentile(99) / 1e6, 1),
    loopDelayMaxMs: round(delay.max / 1e6, 1),
    cpuMsPerRun: round(cpuMs / CHANNELS, 2),
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
