// Profiles one contender of the loop-overhead scenario:
//   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profile-loop.ts <contender> [stream|whole] [runs]
// then `npx tsx bench/support/summarize-profile.ts /tmp/prof/<file>.cpuprofile` for self time by function.
import { getPrompt, loadPrompts, renderPrompt } from '../src/core/prompts.js';
import { createBareOpenAI } from './contenders/bare-openai.js';
import { createLangChain } from './contenders/langchain.js';
import { createOpenAIAgents } from './contenders/openai-agents.js';
import { createThinkthread } from './contenders/thinkthread.js';
import type { Contender, ContenderSetup } from './contenders/types.js';
import { arithmeticFor, isCorrect, questionText } from './support/arithmetic.js';
import { startFakeModel } from './support/fake-model.js';
import { PROMPTS_DIR } from './support/paths.js';

const [name = 'tt-tools', mode = 'stream', count = '2000'] = process.argv.slice(2);
const factories: Record<string, (s: ContenderSetup) => Contender | Promise<Contender>> = {
  bare: createBareOpenAI,
  'tt-tools': (s) => createThinkthread(s, { protocol: 'tools' }),
  'tt-react': (s) => createThinkthread(s, { protocol: 'react' }),
  'tt-assistant': (s) => createThinkthread(s, { protocol: 'tools', assistant: true }),
  'openai-agents': createOpenAIAgents,
  langchain: createLangChain,
};
const factory = factories[name];
if (!factory) throw new Error(`unknown contender ${name}; one of ${Object.keys(factories).join(', ')}`);

const fake = await startFakeModel();
// The same system prompt as thinkthread's, as in the loop-overhead scenario.
const systemPrompt = renderPrompt(getPrompt(loadPrompts(PROMPTS_DIR), 'system-tools'), {
  date: 'Sunday, 29 November 2026 (UTC)',
  tool_names: 'calculator',
});
const contender = await factory({
  url: fake.url,
  stream: mode === 'stream',
  systemPrompt,
});
const runs = Number(count);
let correct = 0;
const cpu = process.cpuUsage();
const start = performance.now();
for (let i = 0; i < runs; i++) {
  const q = arithmeticFor(i);
  if (isCorrect(await contender.ask(questionText(q)), q)) correct++;
}
const ms = performance.now() - start;
const used = process.cpuUsage(cpu);
process.stdout.write(
  `${name} ${mode}: ${runs} runs, ${correct} correct, ${(ms / runs).toFixed(3)} ms/run, ` +
    `${((used.user + used.system) / 1000 / runs).toFixed(3)} ms CPU/run\n`,
);
await contender.close?.();
await fake.close();
