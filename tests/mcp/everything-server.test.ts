import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestCore, type TestCore } from '../helpers/test-core.js';
import { askWithEvents, everythingServer, writeMcpJson } from './mcp-fixture.js';

/** The reference server from npm (`@modelcontextprotocol/server-everything`), spawned over stdio. */
describe('the reference MCP server "everything"', () => {
  let dir: string;
  let test: TestCore | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-everything-'));
  });
  afterEach(async () => {
    await test?.close();
    test = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async (protocol: 'tools' | 'react') => {
    test = await startTestCore({
      AGENT_PROTOCOL: protocol,
      MCP_CONNECT_TIMEOUT_MS: '60000',
      APPROVAL_DEFAULT_MCP: 'never',
      MCP_CONFIG: writeMcpJson(dir, { everything: everythingServer() }),
    });
    return test;
  };

  it('offers its tools and runs them in the tools protocol: text, images and embedded resources', async () => {
    const t = await start('tools');
    const group = t.core.assistant.tools().groups.find((g) => g.name === 'everything');
    expect(group?.state).toBe('ready');
    expect(group?.tools).toEqual(
      expect.arrayContaining(['everything__echo', 'everything__get-sum', 'everything__get-tiny-image']),
    );
    t.fake.script(
      {
        toolCalls: [
          { name: 'everything__get-sum', arguments: { a: 2, b: 3 } },
          { name: 'everything__get-tiny-image', arguments: {} },
          { name: 'everything__get-resource-reference', arguments: { resourceType: 'Text', resourceId: 1 } },
        ],
      },
      { content: 'Five, and a tiny image.' },
    );
    const { outcome, observations } = await askWithEvents(t.core.assistant, 'add 2 and 3, show the image');
    expect(outcome.status).toBe('answered');
    expect(observations.map((o) => o.ok)).toEqual([true, true, true]);
    expect(observations[0]?.text).toContain('5');
    expect(observations[1]?.text).toMatch(/\[image: image\/png, [\d.]+ (bytes|KiB)\]/);
    expect(observations[2]?.text).toMatch(/\[resource: <[^>]+> \(text\/plain, \d+ bytes\)\]/);
    const sum = t.fake.requests[0]!.body.tools!.find((x) => x.function.name === 'everything__get-sum');
    expect(sum?.function.parameters).toMatchObject({
      properties: { a: { type: 'number' }, b: { type: 'number' } },
    });
  });

  it('runs them in the text protocol too', async () => {
    const t = await start('react');
    t.fake.script(
      { content: 'Thought: echo it.\nAction: everything__echo\nAction Input: {"message": "ping"}' },
      { content: 'Thought: done.\nFinal Answer: pong' },
    );
    const { outcome, observations } = await askWithEvents(t.core.assistant, 'echo ping');
    expect(outcome).toMatchObject({ status: 'answered', text: 'pong' });
    expect(observations[0]).toMatchObject({ ok: true, text: 'Echo: ping' });
    expect(String(t.fake.requests[0]!.body.messages[0]!.content)).toContain('- everything__echo: ');
  });
});
