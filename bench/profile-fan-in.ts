// Profiles the fan-in scenario's target run: the real core, N channels asking at once.
//   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profile-fan-in.ts [channels] [model delay ms] [core|bare]
// then `npx tsx bench/support/summarize-profile.ts /tmp/prof/<file>.cpuprofile` for self time by function.
// With a fourth argument `alloc`, it prints where the fan-in allocates instead (V8's sampling heap profiler,
// counting objects already collected too: garbage is what sets the peak RSS).
import { getPrompt, loadPrompts, renderPrompt } from '../src/core/prompts.js';
import { createBareOpenAI } from './contenders/bare-openai.js';
import { type AllocationProfiler, startAllocationProfile } from './support/allocation-profile.js';
import { arithmeticFor, isCorrect, questionText } from './support/arithmetic.js';
import { startBenchCore } from './support/bench-core.js';
import { startFakeModel } from './support/fake-model.js';
import { PROMPTS_DIR } from './support/paths.js';
import { cpuMsSince, pool, since } from './support/stats.js';

const [count = '1000', delay = '100', who = 'core', what = 'cpu'] = process.argv.slice(2);
const channels = Number(count);
const fake = await startFakeModel({ delayMs: Number(delay) });
const bench = await startBenchCore(fake.url, { MAX_CONCURRENT_RUNS: String(channels) });
const bare = createBareOpenAI({
  url: fake.url,
  stream: true,
  systemPrompt: renderPrompt(getPrompt(loadPrompts(PROMPTS_DIR), 'system-tools'), {
    date: 'Sunday, 29 November 2026 (UTC)',
    tool_names: 'calculator',
  }),
});
const ask = async (key: string, i: number) => {
  const q = arithmeticFor(i);
  if (who === 'bare') return isCorrect(await bare.ask(questionText(q)), q);
  const outcome = await bench.core.assistant.ask({ key, author: 'bench', text: questionText(q) }, () => {});
  return outcome.status === 'answered' && isCorrect(outcome.text, q);
};
await pool(256, 64, (i) => ask(`warmup:${i}`, i).then(() => {}));
const allocations: AllocationProfiler | undefined =
  what === 'alloc' ? await startAllocationProfile() : undefined;
const rssBefore = process.memoryUsage.rss();
const cpu = process.cpuUsage();
const start = performance.now();
const results = await Promise.all(Array.from({ length: channels }, (_, i) => ask(`fan:${i}`, i)));
process.stdout.write(
  `${who}, ${channels} channels: ${results.filter(Boolean).length} correct, ${(since(start) / 1000).toFixed(2)} s, ` +
    `${(cpuMsSince(cpu) / channels).toFixed(2)} ms CPU/run, RSS ${(rssBefore / 2 ** 20).toFixed(0)} → peak ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB\n`,
);
if (allocations) process.stdout.write(await allocations.report(30));
await bench.close();
await fake.close();
