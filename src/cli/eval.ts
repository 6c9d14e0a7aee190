import dotenv from 'dotenv';
import { type Config, parseConfig } from '../config.js';
import { ConfigError } from '../core/errors.js';
import { createOpenAIChatModel } from '../core/llm/openai-chat-model.js';
import type { ChatModel } from '../core/llm/types.js';
import { adminSetsDir } from '../evals/case-file.js';
import { type EvalSet, EvalSetError, loadEvalSets } from '../evals/eval-case.js';
import { startEvalCore } from '../evals/eval-core.js';
import {
  changesSince,
  dataDirOf,
  historyFile,
  keepRun,
  previousRun,
  readHistory,
} from '../evals/eval-history.js';
import { passRate, reportLines, summarize } from '../evals/eval-report.js';
import { caseKey } from '../evals/run-case.js';
import { type Progress, runEvals } from '../evals/run-evals.js';
import { exitWith, runCli } from './cli-exit.js';
import { EVAL_SYNOPSIS, EvalArgsError, parseEvalArgs } from './eval-args.js';
import { pricesOf } from './usage-report.js';

/** `npm run eval`: asks every case of the eval sets through the real core, checks and keeps the results. */
async function main(argv: readonly string[]): Promise<void> {
  let args: ReturnType<typeof parseEvalArgs>;
  try {
    args = parseEvalArgs(argv);
  } catch (err) {
    if (err instanceof EvalArgsError) exitWith(2, `thinkthread eval: ${err.message}. ${EVAL_SYNOPSIS}`);
    throw err;
  }
  if (args.help) {
    process.stdout.write(`${EVAL_SYNOPSIS}\n`);
    return;
  }
  dotenv.config({ quiet: true });
  const env = {
    ...process.env,
    ...(args.model ? { LLM_MODEL: args.model } : {}),
    ...(args.protocol ? { AGENT_PROTOCOL: args.protocol } : {}),
    // Replayed, web_search never reaches Tavily: it exists without a key so that its cases can run.
    ...(args.recorded && !process.env.TAVILY_API_KEY?.trim() ? { TAVILY_API_KEY: 'recorded' } : {}),
  };
  let config: Config;
  let sets: EvalSet[];
  try {
    config = parseConfig(env);
    sets = loadEvalSets([args.dir, adminSetsDir(dataDirOf(config.DATABASE_URL))], args.sets);
  } catch (err) {
    if (err instanceof ConfigError) exitWith(1, `thinkthread eval: ${err.problems.join('; ')}`);
    if (err instanceof EvalSetError) exitWith(1, `thinkthread eval: ${err.message}`);
    throw err;
  }
  const recordings = new Map(
    sets.flatMap((s) => s.cases.map((c) => [caseKey(s.name, c.id), c.recorded ?? []] as const)),
  );
  const evalCore = await startEvalCore(
    config,
    env,
    args.recorded ? (key) => recordings.get(key ?? '') ?? [] : undefined,
  );
  const judges = new Map<string, ChatModel>();
  const judgeModel = (model: string) => {
    let m = judges.get(model);
    if (!m) {
      m = createOpenAIChatModel({
        apiKey: config.OPENAI_API_KEY,
        baseURL: config.OPENAI_BASE_URL,
        model,
        temperature: 0,
        maxRetries: config.LLM_MAX_RETRIES,
        timeoutMs: config.LLM_TIMEOUT_MS,
        stream: false,
      });
      judges.set(model, m);
    }
    return m;
  };
  const tty = process.stderr.isTTY === true;
  const progress = (p: Progress) => {
    const width = 24;
    const filled = Math.round((width * p.done) / Math.max(p.total, 1));
    process.stderr.write(
      `\r[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${p.done}/${p.total}, ${p.failed} failed `,
    );
  };
  let results: Awaited<ReturnType<typeof runEvals>>;
  try {
    results = await runEvals(evalCore.core.assistant, sets, {
      concurrency: args.concurrency,
      judges: judgeModel,
      ...(tty ? { progress } : {}),
    });
  } finally {
    if (tty) process.stderr.write('\r\x1b[K');
    await evalCore.close();
  }
  const run = summarize(results, {
    sets: sets.map((s) => s.name),
    model: config.LLM_MODEL,
    protocol: config.AGENT_PROTOCOL,
    recorded: args.recorded,
    prices: pricesOf(config.LLM_PRICE_INPUT_PER_MTOK, config.LLM_PRICE_OUTPUT_PER_MTOK),
  });
  const file = historyFile(dataDirOf(config.DATABASE_URL));
  const before = previousRun(readHistory(file), run);
  process.stdout.write(
    `${reportLines(run, before && { run: before, changes: changesSince(before, run) }).join('\n')}\n`,
  );
  keepRun(file, run);
  process.stdout.write(`kept in ${file}\n`);
  if (passRate(run) < args.min) {
    exitWith(
      1,
      `thinkthread eval: pass rate ${(100 * passRate(run)).toFixed(1)}% is below --min ${args.min}`,
    );
  }
}

await runCli('eval', () => main(process.argv.slice(2)));
