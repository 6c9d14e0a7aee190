import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger.js';
import { createConsoleChat, UNKNOWN_COMMAND } from '../../../src/platforms/console/console-chat.js';
import { startTestCore, type TestCore } from '../../helpers/test-core.js';

/** Pipes `lines` into a plain (non-TTY) terminal chat and waits for it to finish. */
async function pipe(test: TestCore, lines: string[]) {
  const input = new PassThrough();
  const output = new PassThrough();
  let printed = '';
  output.on('data', (d: Buffer) => {
    printed += d.toString('utf8');
  });
  const chat = createConsoleChat({
    assistant: test.core.assistant,
    input,
    output,
    tty: false,
    author: 'operator',
    logger: createLogger({ level: 'silent', secrets: [] }),
  });
  await chat.start();
  input.end(lines.map((l) => `${l}\n`).join(''));
  await chat.finished;
  await chat.stop();
  return { failures: chat.failures, printed };
}

describe('the piped terminal chat tells a script what went wrong', () => {
  let test: TestCore | undefined;
  afterEach(async () => {
    await test?.close();
    test = undefined;
  });

  it('counts no failure when every question is answered', async () => {
    test = await startTestCore();
    test.fake.script({ content: 'Paris.' });
    const { failures, printed } = await pipe(test, ['capital of France?', '/help']);
    expect(printed).toContain('Paris.');
    expect(failures).toBe(0);
  });

  it('counts a question the model failed', async () => {
    test = await startTestCore({ LLM_MAX_RETRIES: '0' });
    test.fake.script({ status: 400 }, { content: 'Paris.' });
    const { failures, printed } = await pipe(test, ['capital of France?', 'and of Italy?']);
    expect(printed).toContain('Paris.');
    expect(failures).toBe(1);
  });

  it('treats the terminal user as the operator: the allow lists do not shut them out, BLOCK_USERS does', async () => {
    test = await startTestCore({ ALLOW_USERS: 'slack:U0SOMEONE', ALLOW_DMS: 'false' });
    test.fake.script({ content: 'Paris.' });
    const allowed = await pipe(test, ['capital of France?']);
    expect(allowed.printed).toContain('Paris.');
    expect(allowed.failures).toBe(0);
    await test.close();

    test = await startTestCore({ BLOCK_USERS: 'console:operator' });
    const blocked = await pipe(test, ['capital of France?']);
    expect(blocked.printed).toContain('You can’t use this bot here.');
    expect(test.fake.requests).toHaveLength(0);
    expect(blocked.failures).toBe(1);
  });

  it('answers an unknown /command itself, without the model, and counts it', async () => {
    test = await startTestCore();
    const { failures, printed } = await pipe(test, ['/frobnicate', '/memory sideways']);
    expect(printed.split('\n').filter((l) => l === UNKNOWN_COMMAND)).toHaveLength(2);
    expect(test.fake.requests).toHaveLength(0);
    expect(failures).toBe(2);
  });
});
