import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger.js';
import { type ConsoleChat, createConsoleChat } from '../../../src/platforms/console/console-chat.js';
import { startTestCore, type TestCore } from '../../helpers/test-core.js';
import { waitUntil } from '../../helpers/wait-until.js';

describe('terminal chat: /settings', () => {
  let test: TestCore;
  let chat: ConsoleChat;
  let input: PassThrough;
  let printed = '';
  beforeEach(async () => {
    test = await startTestCore({ LLM_MODELS: 'big-model' });
    input = new PassThrough();
    const output = new PassThrough();
    printed = '';
    output.on('data', (d: Buffer) => {
      printed += d.toString('utf8');
    });
    chat = createConsoleChat({
      assistant: test.core.assistant,
      input,
      output,
      tty: false,
      author: 'operator',
      logger: createLogger({ level: 'silent', secrets: [] }),
    });
    await chat.start();
  });
  afterEach(async () => {
    await chat.stop();
    await test.close();
  });

  /** Types one line and returns what the chat printed until a line matching `done`. */
  const send = async (line: string, done: RegExp) => {
    const before = printed.length;
    input.write(`${line}\n`);
    await waitUntil(() => done.test(printed.slice(before)), {
      timeoutMs: 20_000,
      what: () => `the chat to print ${done} after "${line}"; it printed: ${printed.slice(before)}`,
    });
    return printed.slice(before);
  };

  it('sets a prompt and a model the next question is asked with, and shows them in /memory', async () => {
    expect(await send('/settings prompt Answer in one word.', /Steps.*\n/)).toContain(
      'Prompt: Answer in one word.',
    );
    expect(await send('/settings model big-model', /Steps.*\n/)).toContain('Model: big-model');
    test.fake.script({ content: 'Paris.' });
    expect(await send('capital of France?', /^Answer: .*\n/m)).toContain('Answer: Paris.');
    const request = test.fake.requests[0]!;
    expect(request.body.model).toBe('big-model');
    expect(request.body.messages[1]).toMatchObject({
      role: 'system',
      content: expect.stringContaining('Answer in one word.'),
    });
    const memory = await send('/memory', /Steps.*\n/);
    expect(memory).toContain('Turns kept verbatim: 1');
    expect(memory).toContain('Model: big-model');
  });

  it('says what is valid for a wrong subcommand or value, saving nothing', async () => {
    expect(await send('/settings colour blue', /Usage.*\n/)).toContain('Unknown setting “colour”');
    expect(await send('/settings protocol telepathy', /Valid.*\n/)).toContain('Valid: tools, react');
    expect(await send('/settings', /Steps.*\n/)).toContain('Protocol (default): tools');
    expect(await send('/settings reset colour', /settings: .*\n/)).toContain('Unknown setting “colour”');
  });

  it('resets one setting, keeping the others', async () => {
    await send('/settings prompt Be brief.', /Steps.*\n/);
    await send('/settings steps off', /Steps.*\n/);
    const reply = await send('/settings reset steps', /Steps.*\n/);
    expect(reply).toContain('steps is back to its default');
    expect(reply).toContain('Prompt: Be brief.');
    expect(reply).toContain('Steps (default): thread');
  });

  it('/settings steps off hides the steps of the next answers; on again shows them', async () => {
    const toolThenAnswer = () =>
      test.fake.script(
        { content: 'Checking the clock.', toolCalls: [{ name: 'current_time', arguments: {} }] },
        { content: 'It is late.' },
      );
    await send('/settings steps off', /Steps.*\n/);
    toolThenAnswer();
    const hidden = await send('what time is it?', /^Answer: .*\n/m);
    expect(hidden).toBe('Answer: It is late.\n');
    await send('/settings steps inline', /Steps.*\n/);
    toolThenAnswer();
    const shown = await send('and now?', /^Answer: .*\n/m);
    expect(shown).toMatch(/^Thought: Checking the clock\.\nAction: current_time/);
  });

  it('/tools lists only the tools in force once they are limited', async () => {
    await send('/settings tools current_time', /Steps.*\n/);
    const tools = await send('/tools', /Built-in.*\n/);
    expect(tools).toContain('Built-in: current_time\n');
  });
});
