// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is the syntax of mcp.json under test
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestCore, type TestCore } from '../helpers/test-core.js';
import { waitUntil, withDeadline } from '../helpers/wait-until.js';
import { type HttpMcpServer, startHttpMcpServer } from './fixtures/http-mcp-server.js';
import { askWithEvents, stdioTestServer, writeMcpJson } from './mcp-fixture.js';

// Spawning a server through tsx on a loaded machine can take a while; nothing here waits this long otherwise.
// These tests are about calling tools, not approving them (tests/core/approvals).
const SLOW = { MCP_CONNECT_TIMEOUT_MS: '60000', APPROVAL_DEFAULT_MCP: 'never' };
const FAST_RETRY = { mcpBackoff: { initialMs: 20, maxMs: 100 } };

let dir: string;
let test: TestCore | undefined;
let http: HttpMcpServer | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'thinkthread-mcp-'));
});
afterEach(async () => {
  await test?.close();
  await http?.close();
  test = undefined;
  http = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const groupOf = (t: TestCore, name: string) => t.core.assistant.tools().groups.find((g) => g.name === name);

describe('MCP tools over stdio, tools protocol', () => {
  it('offers each tool as <server>__<tool> with its nested JSON schema, and calls it', async () => {
    test = await startTestCore(
      { ...SLOW, MCP_CONFIG: writeMcpJson(dir, { test: stdioTestServer() }) },
      {},
      FAST_RETRY,
    );
    test.fake.script(
      {
        toolCalls: [
          {
            name: 'test__echo',
            arguments: { text: 'hi', options: { upper: true, frame: { left: '<', right: '>' } } },
          },
        ],
      },
      { content: 'It said HI.' },
    );
    const { outcome, observations } = await askWithEvents(test.core.assistant, 'echo hi loudly');
    expect(outcome).toMatchObject({ status: 'answered', text: 'It said HI.' });
    expect(observations).toEqual([
      expect.objectContaining({ tool: 'test__echo', ok: true, text: 'echo: <HI>' }),
    ]);

    const offered = test.fake.requests[0]!.body.tools!.map((t) => t.function);
    const echo = offered.find((f) => f.name === 'test__echo');
    expect(echo?.description).toBe('Repeats the text, shaped by the options.');
    expect(echo?.parameters).toMatchObject({
      type: 'object',
      properties: {
        text: { type: 'string' },
        options: {
          type: 'object',
          properties: { frame: { type: 'object', properties: { left: { type: 'string' } } } },
        },
      },
      required: ['text'],
    });
    expect(offered.map((f) => f.name)).toEqual(
      expect.arrayContaining(['calculator', 'test__fail', 'test__hang']),
    );
  });

  it('gives an isError result to the model as a failed Observation, and the run goes on', async () => {
    test = await startTestCore(
      { ...SLOW, MCP_CONFIG: writeMcpJson(dir, { test: stdioTestServer() }) },
      {},
      FAST_RETRY,
    );
    test.fake.script(
      { toolCalls: [{ name: 'test__fail', arguments: {} }] },
      { content: 'The widget is broken.' },
    );
    const { outcome, observations } = await askWithEvents(test.core.assistant, 'check the widget');
    expect(outcome.status).toBe('answered');
    expect(observations[0]).toMatchObject({
      ok: false,
      text: 'Error: test__fail failed: the widget is broken',
    });
    const toolMessage = test.fake.requests[1]!.body.messages.find((m) => m.role === 'tool');
    expect(toolMessage?.content).toBe(
      '<untrusted source="tool" tool="test__fail">\nError: test__fail failed: the widget is broken\n</untrusted>',
    );
  });

  it('describes images and resource links instead of passing their bytes', async () => {
    test = await startTestCore(
      { ...SLOW, MCP_CONFIG: writeMcpJson(dir, { test: stdioTestServer() }) },
      {},
      FAST_RETRY,
    );
    test.fake.script({ toolCalls: [{ name: 'test__picture', arguments: {} }] }, { content: 'A cat.' });
    const { observations } = await askWithEvents(test.core.assistant, 'show me');
    expect(observations[0]?.text).toBe(
      'Here it is.\n[image: image/png, 68 bytes]\n[resource link: cat.png <file:///pictures/cat.png> (image/png, 2.0 KiB)]',
    );
    // Without LLM_VISION, the model is not sent the image itself.
    expect(JSON.stringify(test.fake.requests[1]!.body.messages)).not.toContain('image_url');
  });

  it('passes the images a tool returns on to a vision model (LLM_VISION=true)', async () => {
    test = await startTestCore(
      { ...SLOW, LLM_VISION: 'true', MCP_CONFIG: writeMcpJson(dir, { test: stdioTestServer() }) },
      {},
      FAST_RETRY,
    );
    test.fake.script({ toolCalls: [{ name: 'test__picture', arguments: {} }] }, { content: 'A red dot.' });
    const { outcome } = await askWithEvents(test.core.assistant, 'show me');
    expect(outcome).toMatchObject({ status: 'answered', text: 'A red dot.' });
    const messages = test.fake.requests[1]!.body.messages;
    expect(messages.at(-2)?.role).toBe('tool');
    expect(messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'The images returned by the tool calls above:' },
        { type: 'image_url', image_url: { url: expect.stringMatching(/^data:image\/png;base64,iVBOR/) } },
      ],
    });
  });

  it('offers only the tools mcp.json lists', async () => {
    const entry = { ...stdioTestServer(), tools: ['echo', 'fail'] };
    test = await startTestCore({ ...SLOW, MCP_CONFIG: writeMcpJson(dir, { test: entry }) }, {}, FAST_RETRY);
    expect(groupOf(test, 'test')).toMatchObject({ state: 'ready', tools: ['test__echo', 'test__fail'] });
  });

  it('turns a server crashing mid-call into an Observation, withdraws its tools, then reconnects', async () => {
    test = await startTestCore(
      { ...SLOW, MCP_CONFIG: writeMcpJson(dir, { test: stdioTestServer() }) },
      {},
      FAST_RETRY,
    );
    test.fake.script({ toolCalls: [{ name: 'test__crash', arguments: {} }] }, { content: 'It crashed.' });
    const crashed = await askWithEvents(test.core.assistant, 'crash it');
    expect(crashed.outcome.status).toBe('answered');
    expect(crashed.observations[0]).toMatchObject({ ok: false });
    expect(crashed.observations[0]?.text).toMatch(
      /^Error: test__crash failed: the MCP server "test" stopped/,
    );

    const t = test;
    await waitUntil(() => groupOf(t, 'test')?.state === 'ready', {
      timeoutMs: 60_000,
      what: () => `the server to reconnect (now ${JSON.stringify(groupOf(t, 'test'))})`,
    });
    test.fake.script(
      { toolCalls: [{ name: 'test__echo', arguments: { text: 'back' } }] },
      { content: 'Back.' },
    );
    const again = await askWithEvents(test.core.assistant, 'echo back');
    expect(again.observations[0]).toMatchObject({ ok: true, text: 'echo: back' });
  });

  it('still answers with the built-in tools when a server never starts, and /tools says why', async () => {
    const never = stdioTestServer({ TEST_MCP_EXIT_WITH: 'fatal: no licence key' });
    test = await startTestCore(
      {
        ...SLOW,
        MCP_CONFIG: writeMcpJson(dir, { broken: never, missing: { command: join(dir, 'no-such-server') } }),
      },
      {},
      FAST_RETRY,
    );
    test.fake.script(
      { toolCalls: [{ name: 'calculator', arguments: { expression: '6 * 7' } }] },
      { content: 'It is 42.' },
    );
    const { outcome, observations } = await askWithEvents(test.core.assistant, 'what is 6 * 7?');
    expect(outcome).toMatchObject({ status: 'answered', text: 'It is 42.' });
    expect(observations[0]).toMatchObject({ ok: true });
    const offered = test.fake.requests[0]!.body.tools!.map((t) => t.function.name);
    expect(offered.filter((n) => n.includes('__'))).toEqual([]);

    const broken = groupOf(test, 'broken');
    expect(broken?.state).not.toBe('ready');
    expect(broken?.tools).toEqual([]);
    expect(groupOf(test, 'missing')?.problem).toMatch(/ENOENT|not found|no such file/i);
  });
});

describe('MCP tools over Streamable HTTP', () => {
  it('lists and calls tools, sending the headers with ${VAR} expanded', async () => {
    http = await startHttpMcpServer();
    const entry = { url: http.url, headers: { Authorization: 'Bearer ${TEST_MCP_HTTP_TOKEN}' } };
    test = await startTestCore(
      { ...SLOW, MCP_CONFIG: writeMcpJson(dir, { remote: entry }), TEST_MCP_HTTP_TOKEN: 'tok-http-123456' },
      {},
      FAST_RETRY,
    );
    test.fake.script(
      { toolCalls: [{ name: 'remote__echo', arguments: { text: 'over http' } }] },
      { content: 'Done.' },
    );
    const { observations } = await askWithEvents(test.core.assistant, 'echo over http');
    expect(observations[0]).toMatchObject({ ok: true, text: 'echo: over http' });
    expect(http.headers.every((h) => h.authorization === 'Bearer tok-http-123456')).toBe(true);
  });

  it('times out a call that hangs, and a cancelled run cancels its request on the server', async () => {
    let hanging = 0;
    let cancelled = 0;
    http = await startHttpMcpServer({ onHanging: () => hanging++, onCancelled: () => cancelled++ });
    test = await startTestCore(
      { ...SLOW, MCP_CONFIG: writeMcpJson(dir, { remote: { url: http.url } }), TOOL_TIMEOUT_MS: '300' },
      {},
      FAST_RETRY,
    );
    test.fake.script({ toolCalls: [{ name: 'remote__hang', arguments: {} }] }, { content: 'It hung.' });
    const timedOut = await askWithEvents(test.core.assistant, 'hang');
    expect(timedOut.outcome.status).toBe('answered');
    expect(timedOut.observations[0]).toMatchObject({
      ok: false,
      text: 'Error: remote__hang timed out after 300 ms.',
    });
    await waitUntil(() => cancelled === 1, { what: 'the server to see the timed-out call cancelled' });

    await test.close();
    test = await startTestCore(
      { ...SLOW, MCP_CONFIG: writeMcpJson(dir, { remote: { url: http.url } }) },
      {},
      FAST_RETRY,
    );
    test.fake.script({ toolCalls: [{ name: 'remote__hang', arguments: {} }] });
    const controller = new AbortController();
    const run = askWithEvents(test.core.assistant, 'hang until cancelled', controller.signal);
    await waitUntil(() => hanging === 2, { what: 'the second hang call to start' });
    controller.abort();
    expect((await withDeadline(run, { what: 'the cancelled run to end' })).outcome.status).toBe('cancelled');
    await waitUntil(() => cancelled === 2, { what: 'the server to see the cancelled run’s call cancelled' });
  });
});

describe('MCP tools in the text protocol', () => {
  it('describes them in the system prompt with their schema, and runs them from an Action', async () => {
    test = await startTestCore(
      { ...SLOW, AGENT_PROTOCOL: 'react', MCP_CONFIG: writeMcpJson(dir, { test: stdioTestServer() }) },
      {},
      FAST_RETRY,
    );
    test.fake.script(
      {
        content:
          'Thought: I will echo it.\nAction: test__echo\nAction Input: {"text": "hey", "options": {"frame": {"left": "[", "right": "]"}}}',
      },
      { content: 'Thought: done.\nFinal Answer: It said [hey].' },
    );
    const { outcome, observations } = await askWithEvents(test.core.assistant, 'echo hey');
    expect(outcome).toMatchObject({ status: 'answered', text: 'It said [hey].' });
    expect(observations[0]).toMatchObject({ ok: true, text: 'echo: [hey]' });
    const system = String(test.fake.requests[0]!.body.messages[0]!.content);
    expect(system).toContain('- test__echo: Repeats the text, shaped by the options.');
    expect(system).toContain('"frame":{"type":"object"');
    // What an MCP server answers is quoted data naming the tool.
    expect(String(test.fake.requests[1]!.body.messages.at(-1)!.content)).toBe(
      'Observation: <untrusted source="tool" tool="test__echo">\necho: [hey]\n</untrusted>',
    );
  });
});

describe('secrets expanded into an MCP server’s environment', () => {
  it('reach the server but never the logs or the model', async () => {
    const token = 'sk-mcp-secret-987654';
    const entry = stdioTestServer({ SERVICE_TOKEN: '${TEST_MCP_TOKEN}' });
    const never = stdioTestServer({ TEST_MCP_EXIT_WITH: 'bad token ${TEST_MCP_TOKEN}' });
    test = await startTestCore(
      { ...SLOW, MCP_CONFIG: writeMcpJson(dir, { test: entry, loud: never }), TEST_MCP_TOKEN: token },
      {},
      { ...FAST_RETRY, captureLogs: true },
    );
    test.fake.script(
      { toolCalls: [{ name: 'test__env', arguments: { name: 'SERVICE_TOKEN' } }] },
      { content: 'ok' },
    );
    const { observations } = await askWithEvents(test.core.assistant, 'show the token');
    expect(observations[0]).toMatchObject({ ok: true, text: 'SERVICE_TOKEN=[redacted]' });

    const t = test;
    await waitUntil(() => t.logs.some((line) => line.includes('bad token [redacted]')), {
      what: 'the failing server’s stderr in the logs',
    });
    expect(test.logs.join('\n')).not.toContain(token);
    expect(JSON.stringify(test.core.assistant.tools())).not.toContain(token);
    expect(JSON.stringify(test.fake.requests)).not.toContain(token);
  });
});
