import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { terminalSafe } from '../../src/platforms/console/terminal-text.js';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import { spawnBot } from '../helpers/spawn-bot.js';

const CLIPBOARD = '\x1b]52;c;c2VjcmV0\x07';
const TITLE = '\x1b]0;pwned\x1b\\';
const CLEAR = '\x1b[2J\x1b[H';
const HIDDEN_LINK = '\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\';
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

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
