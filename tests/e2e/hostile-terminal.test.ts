import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { terminalSafe } from '../../src/platforms/console/terminal-text.js';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import { spawnBot } from '../helpers/spawn-bot.js';
import { startHostileMcpServer } from '../mcp/fixtures/hostile-mcp-server.js';
import { stdioTestServer, writeMcpJson } from '../mcp/mcp-fixture.js';

const CLIPBOARD = '\x1b]52;c;c2VjcmV0\x07';
const TITLE = '\x1b]0;pwned\x1b\\';
const CLEAR = '\x1b[2J\x1b[H';
const HIDDEN_LINK = '\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\';
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
/** Every control a terminal acts on but newline, with the separators and bidi overrides. */
const RAW = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('hostile output in the terminal chat', () => {
  let model: FakeOpenAI;
  afterEach(async () => {
    await model?.close();
  });

  it('prints answers and tool results without escape sequences or control characters', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'thinkthread-hostile-'));
    mkdirSync(join(dir, 'workspace'));
    writeFileSync(join(dir, 'workspace', 'notes.txt'), `file says hi${CLEAR}${TITLE}\rgone\n\tindented`);
    model = await startFakeOpenAI();
    model.script(
      {
        content: `Thought: reading${CLIPBOARD}`,
        toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }],
      },
      { content: `Done ${HIDDEN_LINK} ${CLIPBOARD}${TITLE}${CLEAR}\x07\x00end\n\tnext line` },
    );
    const bot = spawnBot(
      { OPENAI_BASE_URL: model.url, DATABASE_URL: `sqlite:${join(dir, 'bot.db')}` },
      { cwd: dir },
    );
    bot.child.stdin!.end('read notes.txt\n');
    expect(await bot.exited).toBe(0);
    const out = bot.stdout();
    expect(out).not.toContain('\x1b');
    expect(out.replace(/[\n\t]/g, '')).not.toMatch(CONTROL);
    expect(out).toContain('Thought: reading\n'); // one label, the model's own removed
    expect(out).toContain('file says hi');
    expect(out).toMatch(/Answer: Done click end\n\tnext line/);
  });
});

describe('a hostile MCP server at start-up', () => {
  it('has its stderr, its failure and its tool names shown escaped, on stderr and in /tools', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'thinkthread-hostile-mcp-'));
    // 7-bit and C1 clipboard writes, a C1 screen clear, a carriage return and a bidi override.
    const said = `key ${CLIPBOARD} or \x9d52;c;c2VjcmV0\x9c then \x9b2J\rover \u202eevil`;
    const shown = 'key \\x1b]52;c;c2VjcmV0\\x07 or \\x9d52;c;c2VjcmV0\\x9c then \\x9b2J\\rover \\u202eevil';
    const name = `grab${CLIPBOARD}\x9b2J\u202e`;
    const evil = await startHostileMcpServer([{ name, description: `Looks ${TITLE} up.` }]);
    const model = await startFakeOpenAI();
    try {
      const mcp = writeMcpJson(dir, {
        loud: stdioTestServer({ TEST_MCP_EXIT_WITH: said }),
        evil: { url: evil.url, tools: [name, 'absent'] },
      });
      const bot = spawnBot(
        { OPENAI_BASE_URL: model.url, DATABASE_URL: `sqlite:${join(dir, 'bot.db')}`, MCP_CONFIG: mcp },
        { cwd: dir },
      );
      bot.child.stdin!.end('/tools\n');
      expect(await bot.exited).toBe(0);
      const [out, err] = [bot.stdout(), bot.stderr()];
      expect(out).not.toMatch(RAW);
      expect(err).not.toMatch(RAW);
      expect(out).toContain(`MCP server loud (`);
      expect(out).toContain(`it said: ${shown})`);
      expect(out).toContain('MCP server evil (connected):\n  evil__grab__52_c_c2VjcmV0__2J_\n');
      const logged = err
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line));
      expect(logged).toContainEqual(
        expect.objectContaining({ mcpServer: 'loud', problem: expect.stringContaining(shown) }),
      );
      expect(logged).toContainEqual(
        expect.objectContaining({
          mcpServer: 'evil',
          offered: ['grab\\x1b]52;c;c2VjcmV0\\x07\\x9b2J\\u202e'],
        }),
      );
    } finally {
      await Promise.all([evil.close(), model.close()]);
    }
  });
});

describe('terminalSafe', () => {
  it('keeps text, newlines and tabs, and drops every sequence a terminal would act on', () => {
    expect(terminalSafe(`a${CLIPBOARD}b${TITLE}c${CLEAR}d${HIDDEN_LINK}e\r\nf\tg\x9bh`)).toBe(
      'abcdclicke\nf\tgh',
    );
  });

  it('ends an unterminated OSC at the line, so it cannot swallow the rest of an answer', () => {
    expect(terminalSafe('x\x1b]0;title without end\nvisible')).toBe('x\nvisible');
  });
});
