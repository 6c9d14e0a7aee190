import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Asker } from '../../src/core/governance/asker.js';
import { formatToolsReport } from '../../src/platforms/shared/format-tools.js';
import { startTestCore, type TestCore } from '../helpers/test-core.js';
import { stdioTestServer, writeMcpJson } from './mcp-fixture.js';

const ADMIN: Asker = {
  platform: 'console',
  userId: 'operator',
  principal: 'console:operator',
  dm: true,
  platformAdmin: true,
};
const offered = (t: TestCore, request: number) =>
  (t.fake.requests[request]!.body.tools ?? []).map((tool) => tool.function.name);

describe('/settings tools with MCP servers', () => {
  let dir: string;
  let test: TestCore;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-mcp-settings-'));
    test = await startTestCore(
      {
        MCP_CONNECT_TIMEOUT_MS: '60000',
        APPROVAL_DEFAULT_MCP: 'never',
        MCP_CONFIG: writeMcpJson(dir, { test: stdioTestServer() }),
      },
      {},
      { mcpBackoff: { initialMs: 20, maxMs: 100 } },
    );
  });
  afterEach(async () => {
    await test.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const set = (key: string, value: string) =>
    test.core.assistant.settings(ADMIN, key, { action: 'set', name: 'tools', value });
  const ask = (key: string) => test.core.assistant.ask({ key, author: 'alice', text: 'hello' }, () => {});

  it('turns a whole server on or off per channel, in the tool list and in /tools', async () => {
    expect(await set('discord:g:builtin', 'calculator')).toMatchObject({ status: 'saved' });
    expect(await set('discord:g:server', 'test')).toMatchObject({ status: 'saved' });
    test.fake.script({ content: 'A.' }, { content: 'B.' }, { content: 'C.' });
    await ask('discord:g:builtin');
    await ask('discord:g:server');
    await ask('discord:g:default');

    expect(offered(test, 0)).toEqual(['calculator']);
    expect(offered(test, 1).length).toBeGreaterThan(1);
    expect(offered(test, 1).every((name) => name.startsWith('test__'))).toBe(true);
    expect(offered(test, 2)).toEqual(expect.arrayContaining(['calculator', 'test__echo']));

    const builtin = formatToolsReport(await test.core.assistant.toolsIn('discord:g:builtin'));
    expect(builtin).toBe('Built-in: calculator');
    const server = formatToolsReport(await test.core.assistant.toolsIn('discord:g:server'));
    expect(server).toMatch(/^Built-in: none\nMCP server test \(connected\):\n {2}test__echo/);
  });

  it('lists the server names among the valid ones, and describes only the tools in force to a react model', async () => {
    const refused = await set('discord:g:c', 'tset');
    expect(refused).toMatchObject({ status: 'invalid' });
    expect(refused.status === 'invalid' && refused.message).toMatch(/Valid: calculator, .*, test, or all\./);

    await set('discord:g:c', 'test');
    await test.core.assistant.settings(ADMIN, 'discord:g:c', {
      action: 'set',
      name: 'protocol',
      value: 'react',
    });
    test.fake.script({ content: 'Thought: simple.\nFinal Answer: Hi.' });
    await ask('discord:g:c');
    const system = String(test.fake.requests[0]!.body.messages[0]!.content);
    expect(system).toMatch(/one of \[test__echo, [^\]]*\]/);
    expect(system).toContain('- test__echo: Repeats the text');
    expect(system).not.toMatch(/one of \[[^\]]*calculator/);
    expect(system).not.toContain('- calculator:');
  });
});
