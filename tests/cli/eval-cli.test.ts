/**
 * `npm run eval` against the scripted model: a small set with a passing tool case, a passing answer, a failing
 * one and one a judge model grades; the figures, the failures' reasons, what changed since the last run, the
 * kept history and the exit code below --min.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAI, type RecordedRequest, startFakeOpenAI } from '../fakes/openai-server.js';
import { runCli } from '../helpers/run-cli.js';

const CASES = [
  {
    id: 'sum',
    question: 'What is 2 + 2?',
    recorded: [{ tool: 'calculator', output: '4' }],
    checks: { number: { value: 4 }, calls: ['calculator'], maxSteps: 3 },
  },
  {
    id: 'capital',
    question: 'What is the capital of France?',
    checks: { contains: ['Paris'], notCalls: ['web_search'] },
  },
  { id: 'japan', question: 'What is the capital of Japan?', checks: { contains: ['Tokyo'] } },
  {
    id: 'judged',
    question: 'Explain recursion in one sentence.',
    checks: { judge: { model: 'judge-model', prompt: 'The answer defines recursion correctly.' } },
  },
];

/** The text of a request's messages, to tell which case asks and whether a tool result came back. */
const said = (r: RecordedRequest) =>
  r.body.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');

describe('npm run eval', { timeout: 120_000 }, () => {
  let dir: string;
  let fake: FakeOpenAI;
  let env: Record<string, string>;
  /** Second run: the model forgets France and learns Japan. */
  let flipped = false;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-eval-cli-'));
    mkdirSync(join(dir, 'evals'));
    mkdirSync(join(dir, 'workspace'));
    writeFileSync(join(dir, 'evals', 'ci.jsonl'), `${CASES.map((c) => JSON.stringify(c)).join('\n')}\n`);
    fake = await startFakeOpenAI({
      fallback: (request) => {
        const text = said(request);
        // The judge, asked by its own model name: PASS on the first run, FAIL on the second.
        if (request.body.model === 'judge-model') {
          return { content: flipped ? 'FAIL\nIt never says what recursion is.' : 'PASS\nIt defines it.' };
        }
        if (text.includes('recursion'))
          return { content: 'Final Answer: Recursion is a function calling itself.' };
        if (text.includes('2 + 2?')) {
          return text.includes('Observation:')
            ? { content: 'Thought: I have it.\nFinal Answer: 2 + 2 = 4.' }
            : { content: 'Thought: add them.\nAction: calculator\nAction Input: {"expression": "2 + 2"}' };
        }
        if (text.includes('capital of France')) {
          return { content: `Final Answer: The capital of France is ${flipped ? 'Lyon' : 'Paris'}.` };
        }
        return { content: `Final Answer: The capital of Japan is ${flipped ? 'Tokyo' : 'Kyoto'}.` };
      },
    });
    env = {
      OPENAI_BASE_URL: fake.url,
      LLM_MODEL: 'scripted',
      LLM_MAX_RETRIES: '0',
      LLM_PRICE_INPUT_PER_MTOK: '0.15',
      LLM_PRICE_OUTPUT_PER_MTOK: '0.6',
      DATABASE_URL: `sqlite:${join(dir, 'data', 'bot.db')}`,
      PROMPTS_DIR: resolve(import.meta.dirname, '../../prompts'),
      WORKSPACE_DIR: join(dir, 'workspace'),
      LOG_LEVEL: 'silent',
    };
  });

  afterAll(async () => {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const evals = (args: string[]) => runCli('eval', ['--protocol', 'react', '--recorded', ...args], dir, env);

  it('runs the set, names the failure and its reason, and prints the figures', async () => {
    const run = await evals(['--min', '0.5']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('✗ ci/japan: answer lacks "Tokyo"');
    expect(run.stdout).toContain('passed 3/4 (75.0%)');
    expect(run.stdout).toMatch(
      /tokens \d[\d,]* \(prompt [\d,]+, of which cached 0; completion [\d,]+\), cost about \$0\.\d{4}/,
    );
    expect(run.stdout).toMatch(/latency p50 \d+\.\d+ s, p95 \d+\.\d+ s/);
    expect(run.stdout).toContain('no earlier run of this model, protocol and mode to compare with');
    // The recorded observation reached the model instead of the calculator.
    expect(fake.requests.some((r) => said(r).includes('Observation:') && said(r).includes('4'))).toBe(true);
  });

  it('says what changed since the last run, keeps both runs, and exits 1 below --min', async () => {
    flipped = true;
    const run = await evals(['--min', '0.9']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('pass rate 50.0% is below --min 0.9');
    expect(run.stdout).toContain('new failures: ci/capital, ci/judged');
    expect(run.stdout).toContain('✗ ci/judged: judge judge-model: FAIL (It never says what recursion is.)');
    expect(run.stdout).toContain('fixed: ci/japan');
    const kept = readFileSync(join(dir, 'data', 'evals', 'runs.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(kept).toHaveLength(2);
    expect(JSON.parse(kept[1]!)).toMatchObject({
      model: 'scripted',
      protocol: 'react',
      recorded: true,
      passed: 2,
      total: 4,
    });
  });

  it('refuses a bad --min and a broken case with a short message', async () => {
    const bad = await evals(['--min', '2']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^thinkthread eval: --min must be a pass rate from 0 to 1/);
    writeFileSync(join(dir, 'evals', 'broken.jsonl'), '{"id": "x", "question": "hi"}\n');
    const broken = await evals(['--set', 'broken']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/broken\.jsonl:1: checks: /);
  });
});
