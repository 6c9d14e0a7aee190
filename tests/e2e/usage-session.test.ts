import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import { runCli } from '../helpers/run-cli.js';
import { spawnBot } from '../helpers/spawn-bot.js';

describe('the usage record of a scripted session (terminal chat, then npm run usage)', {
  timeout: 60_000,
}, () => {
  let model: FakeOpenAI;
  afterEach(async () => {
    await model?.close();
  });

  it('counts each question, its model calls and tokens, and shows them per user and per channel', async () => {
    model = await startFakeOpenAI();
    model.script(
      {
        content: 'Let me compute.',
        toolCalls: [{ name: 'calculator', arguments: { expression: '6 * 7' } }],
        usage: { prompt_tokens: 300, completion_tokens: 20 },
      },
      { content: 'It is 42.', usage: { prompt_tokens: 350, completion_tokens: 10 } },
      { content: 'Hello!', usage: { prompt_tokens: 200, completion_tokens: 5 } },
    );
    const dir = mkdtempSync(join(tmpdir(), 'thinkthread-usage-'));
    const env = { DATABASE_URL: `sqlite:${join(dir, 'bot.db')}`, DEFAULT_TIMEZONE: 'UTC' };
    const bot = spawnBot({ ...env, OPENAI_BASE_URL: model.url }, { cwd: dir });
    bot.child.stdin!.end('what is 6 * 7?\nhi\n/usage\n');
    expect(await bot.exited).toBe(0);
    // The terminal's own /usage: the session so far, and the top lists (whoever runs it is an admin).
    expect(bot.stdout()).toMatch(/You today: 2 questions, 885 tokens/);
    expect(bot.stdout()).toMatch(/Top channels this month:\n {2}1\. console:local: 2 questions, 885 tokens/);

    const table = await runCli('usage', ['--by', 'channel', '--csv'], dir, {
      ...env,
      LLM_PRICE_INPUT_PER_MTOK: '1',
      LLM_PRICE_OUTPUT_PER_MTOK: '10',
    });
    expect(table.code).toBe(0);
    const rows = table.stdout
      .trim()
      .split(/\r?\n/)
      .map((line) => line.split(','));
    const header = rows[0]!;
    const channel = Object.fromEntries(header.map((name, i) => [name, rows[1]![i]]));
    expect(channel).toMatchObject({
      questions: '2',
      model_calls: '3',
      prompt_tokens: '850',
      completion_tokens: '35',
      total_tokens: '885',
    });
    expect(Object.values(channel)).toContain('console:local');
    expect(Number(channel.estimated_cost_usd)).toBeCloseTo((850 * 1 + 35 * 10) / 1_000_000, 6);
  });
});
