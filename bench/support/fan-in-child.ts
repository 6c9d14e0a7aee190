// One fan-in in a process of its own, compiled to JavaScript (see run-fan-in-child.ts), so what is measured
// is what `npm start` runs: no TypeScript loader in the time or the memory, and nothing the parent grew.
import { getPrompt, loadPrompts, renderPrompt } from '../../src/core/prompts.js';
import { arithmeticFor, isCorrect, questionText } from './arithmetic.js';
import { startBenchCore } from './bench-core.js';
import { type FanIn, fanIn } from './fan-in-measure.js';
import { PROMPTS_DIR } from './paths.js';
import { median, pool, since } from './stats.js';

/** What the parent asks for. */
export interface FanInJob {
  who: 'core' | 'bare';
  modelUrl: string;
  channels: number;
  /** MAX_CONCURRENT_RUNS of the core. */
  limit: number;
  warmupRuns: number;
  label: string;
}

/** What the child reports: the fan-in, the median single run and the RSS once started, before any question. */
export interface FanInOutcome {
  fan: FanIn;
  singleMs: number;
  startedRssMb: number;
}

const job = JSON.parse(process.argv[2]!) as FanInJob;

async function main(): Promise<FanInOutcome> {
  if (job.who === 'bare') {
    const systemPrompt = renderPrompt(getPrompt(loadPrompts(PROMPTS_DIR), 'system-tools'), {
      date: 'Sunday, 29 November 2026 (UTC)',
      tool_names: 'calculator',
    });
    // Imported here: its in-process calculator loads mathjs (about 70 MB), which the core's process must not hold.
    const { createBareOpenAI } = await import('../contenders/bare-openai.js');
    const bare = createBareOpenAI({ url: job.modelUrl, stream: true, systemPrompt });
    const ask = async (i: number) => {
      const question = arithmeticFor(i);
      return isCorrect(await bare.ask(questionText(question)), question);
    };
    const startedRssMb = process.memoryUsage.rss() / 2 ** 20;
    return measure(ask, startedRssMb);
  }
  const bench = await startBenchCore(job.modelUrl, { MAX_CONCURRENT_RUNS: String(job.limit) });
  try {
    const startedRssMb = process.memoryUsage.rss() / 2 ** 20;
    let run = 0;
    const ask = async (i: number) => {
      const question = arithmeticFor(i);
      const outcome = await bench.core.assistant.ask(
        { key: `bench:${run++}`, author: 'bench', text: questionText(question) },
        () => {},
      );
      return outcome.status === 'answered' && isCorrect(outcome.text, question);
    };
    return await measure(ask, startedRssMb);
  } finally {
    await bench.close();
  }
}

async function measure(ask: (i: number) => Promise<boolean>, startedRssMb: number): Promise<FanInOutcome> {
  // Warm-up (JIT, connections, the calculator process), then the single-run time the fan-in is shown beside.
  await pool(job.warmupRuns, 64, (i) => ask(i).then(() => {}));
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    await ask(i);
    times.push(since(start));
  }
  const fan = await fanIn(job.label, job.channels, ask);
  return { fan, singleMs: median(times), startedRssMb: Math.round(startedRssMb * 10) / 10 };
}

main().then(
  (outcome) => process.send!(outcome, () => process.exit(0)),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
