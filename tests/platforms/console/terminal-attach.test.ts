import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeOpenAI, type RecordedRequest, startFakeOpenAI } from '../../fakes/openai-server.js';
import { makeDocx } from '../../helpers/documents.js';
import { spawnBot } from '../../helpers/spawn-bot.js';

/** What the model was asked: the question with what came with it. */
const asked = (request: RecordedRequest) => String(request.body.messages.at(-1)!.content);

/** What `search_knowledge` told the model in a request (its last tool message). */
const observation = (request: RecordedRequest) =>
  String(request.body.messages.filter((m) => m.role === 'tool').at(-1)?.content ?? '');

describe('terminal chat: /attach <path> sends a file with the next question', () => {
  let fake: FakeOpenAI;
  let dir: string;

  beforeEach(async () => {
    fake = await startFakeOpenAI();
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-attach-'));
  });
  afterEach(async () => {
    await fake.close();
  });

  const env = (extra: Record<string, string> = {}) => ({
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: 'sk-secret-value-123456',
    DATABASE_URL: `sqlite:${join(dir, 'bot.db')}`,
    LOG_LEVEL: 'warn',
    ...extra,
  });

  it('quotes the Word file to the model with that question only, and keeps it in the terminal’s knowledge', async () => {
    mkdirSync(join(dir, 'docs'));
    writeFileSync(
      join(dir, 'docs', 'budget.docx'),
      await makeDocx([{ heading: 'Budget', text: 'Laptops cost 1200 EUR each.' }]),
    );
    fake.script(
      { content: 'Laptops are 1200 EUR.' },
      { content: 'Hello.' },
      {
        content: 'Looking.',
        toolCalls: [{ name: 'search_knowledge', arguments: { query: 'laptops cost' } }],
      },
      { content: '1200 EUR.' },
    );
    const bot = spawnBot(env(), { cwd: dir });
    bot.child.stdin!.end(
      [
        '/attach',
        '/attach "docs/budget.docx"',
        '/attach',
        'what does the budget say?',
        'hello',
        'how much are laptops?',
        '/knowledge list',
        '',
      ].join('\n'),
    );
    expect(await bot.exited).toBe(0);
    const out = bot.stdout();
    expect(out).toContain('Nothing is attached. /attach <path> sends a file with your next question.');
    expect(out).toMatch(/Attached budget\.docx \(\d+\.\d KB\); it goes with your next question\./);
    expect(out).toContain('Attached, for your next question: budget.docx.');
    expect(out).toContain('Answer: Laptops are 1200 EUR.');

    const [withFile, next] = fake.requests;
    expect(asked(withFile!)).toMatch(
      /<untrusted source="attachment" name="budget.docx">[\s\S]*## Budget\nLaptops cost 1200 EUR each\./,
    );
    expect(asked(withFile!)).toMatch(/what does the budget say\?$/);
    // The file went with that question only.
    expect(asked(next!)).not.toContain('Attached file');
    expect(observation(fake.requests.at(-1)!)).toContain(
      'Source: budget.docx § Budget (shared in this channel)\nLaptops cost 1200 EUR each.',
    );
    expect(fake.requests).toHaveLength(4);
    expect(out).toContain('budget.docx: 1 passage, shared by you on');
  });

  it('refuses a missing, oversized, encrypted or unknown file in a sentence; /detach drops what was attached', async () => {
    copyFileSync(
      join(import.meta.dirname, '../../fixtures/documents/encrypted.pdf'),
      join(dir, 'secret.pdf'),
    );
    writeFileSync(join(dir, 'scan.pdf'), Buffer.alloc(3000));
    writeFileSync(join(dir, 'setup.exe'), Buffer.from([0x4d, 0x5a, 0]));
    writeFileSync(join(dir, 'note.txt'), 'Ferry at 9.');
    fake.script({ content: 'No file here.' });
    const bot = spawnBot(env({ DOCUMENT_MAX_BYTES: '2000' }), { cwd: dir });
    bot.child.stdin!.end(
      [
        '/attach missing.pdf',
        '/attach scan.pdf',
        '/attach secret.pdf',
        '/attach setup.exe',
        '/attach .',
        '/attach note.txt',
        '/detach',
        'anything attached?',
        '',
      ].join('\n'),
    );
    // Refused files count as failures, so a script can tell.
    expect(await bot.exited).toBe(1);
    const out = bot.stdout();
    expect(out).toContain(`No such file: ${join(dir, 'missing.pdf')}.`);
    expect(out).toContain('Not attached: scan.pdf: documents over 2.0 KB are not read.');
    expect(out).toContain('Not attached: secret.pdf: it is password-protected.');
    expect(out).toContain('Not attached: setup.exe: binary or unknown type, not read.');
    expect(out).toMatch(/is a folder; attach a file\./);
    expect(out).toContain('Dropped note.txt.');
    expect(out).toContain('Answer: No file here.');
    expect(fake.requests).toHaveLength(1);
    expect(asked(fake.requests[0]!)).not.toContain('Attached file');
  });
});
