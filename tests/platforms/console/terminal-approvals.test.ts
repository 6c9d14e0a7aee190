import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../../fakes/openai-server.js';
import { spawnBot } from '../../helpers/spawn-bot.js';
import { stdioTestServer, writeMcpJson } from '../../mcp/mcp-fixture.js';

const ECHO = { toolCalls: [{ name: 'test__echo', arguments: { text: 'hi' } }] };
const PROMPT =
  /^Approve test__echo with \{\n {2}"text": "hi"\n\}\? \[y = yes, n = no, n <reason> = no, saying why\] /m;

describe('terminal chat: tool calls that wait for approval (stdin piped: the next line answers)', () => {
  let fake: FakeOpenAI;
  let dir: string;

  beforeEach(async () => {
    fake = await startFakeOpenAI();
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-chat-approvals-'));
  });
  afterEach(async () => {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const env = (server: Record<string, unknown> = {}, extra: Record<string, string> = {}) => ({
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: 'sk-secret-value-123456',
    DATABASE_URL: `sqlite:${join(dir, 'bot.db')}`,
    MCP_CONFIG: writeMcpJson(dir, { test: { ...stdioTestServer(), ...server } }),
    MCP_CONNECT_TIMEOUT_MS: '60000',
    ...extra,
  });

  it('asks y/n with the exact arguments; y runs the tool', async () => {
    fake.script(ECHO, { content: 'It echoed.' });
    const bot = spawnBot(env(), { cwd: dir });
    bot.child.stdin!.end('echo hi\ny\n');
    expect(await bot.exited).toBe(0);
    expect(bot.stdout()).toMatch(PROMPT);
    expect(bot.stdout()).toMatch(
      /test__echo approved by \S+\.\nObservation: echo: hi\nAnswer: It echoed\.\n$/,
    );
  });

  it('n with a reason denies it: the tool does not run and the model reads the reason', async () => {
    fake.script(ECHO, { content: 'I did not echo.' });
    const bot = spawnBot(env(), { cwd: dir });
    bot.child.stdin!.end('echo hi\nn not in this chat\n');
    expect(await bot.exited).toBe(0);
    expect(bot.stdout()).toMatch(/test__echo denied by \S+: not in this chat\.\nObservation: Not run: /);
    expect(bot.stdout()).not.toContain('echo: hi');
    expect(JSON.stringify(fake.requests[1]!.body.messages)).toContain('Their reason: not in this chat');
  });

  it('asks again on an answer that is neither y nor n', async () => {
    fake.script(ECHO, { content: 'It echoed.' });
    const bot = spawnBot(env(), { cwd: dir });
    bot.child.stdin!.end('echo hi\nmaybe\nyes\n');
    expect(await bot.exited).toBe(0);
    expect(bot.stdout()).toContain('Please answer y or n (n <reason> to say why): ');
    expect(bot.stdout()).toContain('Observation: echo: hi');
  });

  it('no answer in time denies the call and the model is told; the chat goes on', async () => {
    fake.script(ECHO, { content: 'Nobody approved it.' }, { content: 'Second.' });
    const bot = spawnBot(env({}, { APPROVAL_TIMEOUT_MS: '50' }), { cwd: dir });
    bot.child.stdin!.write('echo hi\n');
    await bot.waitFor('Answer: Nobody approved it.');
    bot.child.stdin!.end('next question\n');
    expect(await bot.exited).toBe(0);
    expect(bot.stdout()).toMatch(
      /test__echo was not approved in time, so it did not run\.\nObservation: Not run: no one approved/,
    );
    expect(bot.stdout()).toMatch(/Answer: Second\.\n$/);
  });

  it('once-per-channel: after one y the tool runs without asking in this chat', async () => {
    fake.script(ECHO, { content: 'one' }, ECHO, { content: 'two' });
    const bot = spawnBot(env({ approval: 'once-per-channel' }), { cwd: dir });
    bot.child.stdin!.end('echo hi\ny\necho again\n');
    expect(await bot.exited).toBe(0);
    expect(bot.stdout().match(/Approve test__echo/g)).toHaveLength(1);
    expect(bot.stdout()).toMatch(/Answer: two\n$/);
  });
});
