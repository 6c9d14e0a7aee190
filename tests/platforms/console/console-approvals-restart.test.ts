import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resumerThrough } from '../../../src/core/approvals/resume-through.js';
import { createLogger } from '../../../src/core/logger.js';
import { type ConsoleChat, createConsoleChat } from '../../../src/platforms/console/console-chat.js';
import { startTestCore, type TestCore } from '../../helpers/test-core.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { stdioTestServer, writeMcpJson } from '../../mcp/mcp-fixture.js';

/** A terminal chat process: its core (on `databaseUrl` when given) and its chat, printing into `printed`. */
async function terminalProcess(dir: string, databaseUrl?: string) {
  const test = await startTestCore(
    { MCP_CONNECT_TIMEOUT_MS: '60000', MCP_CONFIG: writeMcpJson(dir, { test: stdioTestServer() }) },
    {},
    {
      mcpBackoff: { initialMs: 20, maxMs: 100 },
      approvals: { beatMs: 20, staleMs: 1 },
      ...(databaseUrl ? { databaseUrl } : {}),
    },
  );
  const input = new PassThrough();
  const output = new PassThrough();
  const shown = { text: '' };
  output.on('data', (d: Buffer) => {
    shown.text += d.toString('utf8');
  });
  const chat: ConsoleChat = createConsoleChat({
    assistant: test.core.assistant,
    input,
    output,
    tty: false,
    author: 'operator',
    logger: createLogger({ level: 'silent', secrets: [] }),
  });
  await chat.start();
  test.core.approvals?.start(resumerThrough({ console: chat.systemRuns! }));
  return { test, chat, input, shown };
}

describe('terminal chat: a call waiting for approval when the bot stops', () => {
  let dir: string;
  const open: { test: TestCore; chat: ConsoleChat }[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-console-approvals-restart-'));
  });
  afterEach(async () => {
    for (const p of open.reverse()) {
      await p.chat.stop();
      await p.test.close();
    }
    open.length = 0;
    rmSync(dir, { recursive: true, force: true });
  });

  it('is asked about again at the next start, and y goes on with the run there', async () => {
    const before = await terminalProcess(dir);
    open.push(before);
    before.test.fake.script({ toolCalls: [{ name: 'test__echo', arguments: { text: 'hi' } }] });
    before.input.write('please echo hi\n');
    await waitUntil(() => before.shown.text.includes('Approve test__echo with'), {
      timeoutMs: 20_000,
      what: () => `the approval prompt; printed: ${before.shown.text}`,
    });
    // The bot stops (SIGTERM): the call is kept, not stopped.
    await before.chat.stop();
    await before.test.core.approvals?.stop();
    expect(await before.test.store.listApprovals({ since: 0, until: Date.now() + 1 })).toEqual([]);

    const after = await terminalProcess(dir, before.test.config.DATABASE_URL);
    open.push(after);
    after.test.fake.script({ content: 'Echoed after the restart.' });
    await waitUntil(() => after.shown.text.includes('Approve test__echo with'), {
      what: () => `the kept call to be asked about; printed: ${after.shown.text}`,
    });
    expect(after.shown.text).toContain('A tool call was waiting for approval when the bot stopped.');
    after.input.write('y\n');
    await waitUntil(() => after.shown.text.includes('Echoed after the restart.'), {
      what: () => `the run to go on; printed: ${after.shown.text}`,
    });
    expect(after.shown.text).toContain('test__echo approved by operator.');
    expect(after.shown.text).toContain('▶️ Going on after a restart (test__echo approved by operator)');
    expect(after.shown.text).toContain('echo: hi');
    const [decision] = await after.test.store.listApprovals({ since: 0, until: Date.now() + 1 });
    expect(decision).toMatchObject({
      tool: 'test__echo',
      outcome: 'approved',
      decidedBy: 'console:operator',
    });
    expect((await after.test.core.assistant.history('console:local')).turns).toEqual([
      expect.objectContaining({ question: 'please echo hi', answer: 'Echoed after the restart.' }),
    ]);
  });
});
