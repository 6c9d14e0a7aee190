import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger.js';
import { type ConsoleChat, createConsoleChat } from '../../../src/platforms/console/console-chat.js';
import { manualClock } from '../../core/schedules/scheduler-fixture.js';
import { startTestCore, type TestCore } from '../../helpers/test-core.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { stdioTestServer, writeMcpJson } from '../../mcp/mcp-fixture.js';

describe('terminal chat: a run nobody just typed that reaches a call needing approval', () => {
  let dir: string;
  let test: TestCore;
  let chat: ConsoleChat;
  let input: PassThrough;
  let printed = '';
  const clock = manualClock(Date.UTC(2026, 11, 3, 8, 0));
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-console-scheduled-approval-'));
    test = await startTestCore(
      {
        DEFAULT_TIMEZONE: 'UTC',
        MCP_CONNECT_TIMEOUT_MS: '60000',
        MCP_CONFIG: writeMcpJson(dir, { test: stdioTestServer() }),
      },
      {},
      { schedules: { now: clock.now }, mcpBackoff: { initialMs: 20, maxMs: 100 } },
    );
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
    test.core.schedules!.start({ console: chat.systemRuns! });
  });
  afterEach(async () => {
    await chat.stop();
    await test.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('asks y/n in the terminal, and the answer decides the call', async () => {
    input.write('/schedule add "in 10 minutes" echo hi\n');
    await waitUntil(() => printed.includes('I will remind you'), { what: 'the reminder to be added' });
    clock.advance(10 * 60_000);
    test.fake.script(
      { toolCalls: [{ name: 'test__echo', arguments: { text: 'hi' } }] },
      { content: 'Echoed.' },
    );
    expect(await test.core.schedules!.tick()).toBe(1);
    await waitUntil(() => printed.includes('Approve test__echo with'), {
      timeoutMs: 20_000,
      what: () => `the approval prompt; printed: ${printed}`,
    });
    input.write('y\n');
    await test.core.schedules!.idle();
    expect(printed).toContain('Echoed.');
    const [decision] = await test.store.listApprovals({ since: 0, until: Date.now() + 1 });
    expect(decision).toMatchObject({
      tool: 'test__echo',
      outcome: 'approved',
      decidedBy: 'console:operator',
    });
  });
});
