import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../fakes/openai-server.js';
import { makeDocx } from '../../helpers/documents.js';
import { startWebBed, type WebBed, WebUser } from './web-harness.js';

/** What the model was asked last: the question with what came with it. */
const asked = (request: RecordedRequest) => {
  const content = request.body.messages.at(-1)!.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
};

/** What `search_knowledge` told the model in a request (its last tool message). */
const observation = (request: RecordedRequest) =>
  String(request.body.messages.filter((m) => m.role === 'tool').at(-1)?.content ?? '');

const search = {
  content: 'Looking.',
  toolCalls: [{ name: 'search_knowledge', arguments: { query: 'laptops cost' } }],
};

const form = (fields: [string, string | Blob, string?][]) => {
  const f = new FormData();
  for (const [name, value, file] of fields) {
    if (typeof value === 'string') f.append(name, value);
    else f.append(name, value, file);
  }
  return f;
};

describe('the web chat: a file sent with a question', () => {
  let bed: WebBed | undefined;
  const users: WebUser[] = [];
  const user = () => {
    const u = new WebUser(bed!.url);
    users.push(u);
    return u;
  };
  afterEach(async () => {
    for (const u of users.splice(0)) u.close();
    await bed?.close();
    bed = undefined;
  });

  it('reaches the model as quoted data, names the file on the question, and is searched in this chat only', async () => {
    bed = await startWebBed();
    const { fake } = bed.test;
    const docx = await makeDocx([{ heading: 'Budget', text: 'Laptops cost 1200 EUR each.' }]);
    const ann = user();
    fake.script({ content: 'Laptops are 1200 EUR.' });
    const run = await ann.askWith('what does the budget say?', { name: 'budget.docx', bytes: docx });
    expect(run.question).toBe('what does the budget say?');
    expect(run.files).toEqual(['budget.docx']);
    expect(run.answer).toBe('Laptops are 1200 EUR.');
    const text = asked(fake.requests.at(-1)!);
    expect(text).toContain('Attached file "budget.docx"');
    expect(text).toMatch(
      /<untrusted source="attachment" name="budget.docx">[\s\S]*## Budget\nLaptops cost 1200 EUR each\./,
    );
    expect(text).toMatch(/what does the budget say\?$/);

    // Later in the same chat, the file is part of its knowledge, shared by the asker.
    fake.script(search, { content: '1200 EUR.' });
    await ann.ask('how much are laptops?');
    expect(observation(fake.requests.at(-1)!)).toContain(
      'Source: budget.docx § Budget (shared in this channel)\nLaptops cost 1200 EUR each.',
    );
    expect(await ann.command('/knowledge list')).toContain('budget.docx: 1 passage, shared by you on');

    // Another person's chat does not find it, nor the same person's next chat.
    const bob = user();
    fake.script(search, { content: 'I do not know.' });
    await bob.ask('how much are laptops?');
    expect(observation(fake.requests.at(-1)!)).not.toContain('1200');
    expect((await ann.client.request('/api/new-chat', {})).status).toBe(204);
    const annAgain = user();
    for (const [k, v] of ann.client.cookies) annAgain.client.cookies.set(k, v);
    fake.script(search, { content: 'I do not know.' });
    await annAgain.ask('how much are laptops?');
    expect(observation(fake.requests.at(-1)!)).not.toContain('1200');

    // The file's name comes back with the chat's kept answers.
    ann.close();
    const reloaded = user();
    for (const [k, v] of annAgain.client.cookies) reloaded.client.cookies.set(k, v);
    const chats = await reloaded.client.request('/api/chats');
    const first = (chats.body!.chats as { id: string; title: string }[]).find(
      (c) => c.title === 'what does the budget say?',
    )!;
    expect((await reloaded.client.request('/api/chats/open', { id: first.id })).status).toBe(204);
    const feed = await reloaded.stream();
    const snapshot = await feed.next((e) => e.event === 'conversation');
    const runs = (snapshot.data as { runs: { question: string; files?: string[] }[] }).runs;
    expect(runs[0]).toMatchObject({ question: 'what does the budget say?', files: ['budget.docx'] });
    // Resetting the chat forgets its files.
    await reloaded.command('/reset');
    expect(await reloaded.command('/knowledge list')).toContain('No files shared here are kept.');
  });

  it('a file sent alone is looked at; an encrypted or unknown file is one sentence under the answer', async () => {
    bed = await startWebBed();
    const { fake } = bed.test;
    const ann = user();
    fake.script({ content: 'It is a note about ferries.' });
    const alone = await ann.askWith('', { name: 'ferry.md', bytes: Buffer.from('# Ferry\nLeaves at 9.') });
    expect(alone.question).toBe('Please look at the attached file.');
    expect(asked(fake.requests.at(-1)!)).toContain('# Ferry\nLeaves at 9.');

    const encrypted = readFileSync(join(import.meta.dirname, '../../fixtures/documents/encrypted.pdf'));
    fake.script({ content: 'I could not open it.' });
    const locked = await ann.askWith('what is in it?', {
      name: 'secret.pdf',
      type: 'application/pdf',
      bytes: encrypted,
    });
    expect(locked.answer).toBe('I could not open it.');
    expect(locked.note).toContain('Skipped secret.pdf: it is password-protected.');
    expect(asked(fake.requests.at(-1)!)).toContain('"secret.pdf" (application/pdf, 1.7 KB): skipped');

    fake.script({ content: 'I cannot run programs.' });
    const program = await ann.askWith('run this', { name: 'setup.exe', bytes: Buffer.from([0x4d, 0x5a, 0]) });
    expect(program.answer).toBe('I cannot run programs.');
    expect(program.note).toContain('Skipped setup.exe: binary or unknown type, not read.');
    // Only the note was kept in this chat's knowledge; the refused files were not.
    const listed = await ann.command('/knowledge list');
    expect(listed).toContain('ferry.md');
    expect(listed).not.toContain('secret.pdf');
    expect(listed).not.toContain('setup.exe');
  });

  it('sends an image to a vision model, in the same request as the question', async () => {
    bed = await startWebBed({ LLM_VISION: 'true' });
    const { fake } = bed.test;
    const ann = user();
    fake.script({ content: 'A tiny image.' });
    const run = await ann.askWith('what is this?', { name: 'dot.png', type: 'image/png', bytes: PNG });
    expect(run.answer).toBe('A tiny image.');
    expect(fake.requests.at(-1)!.body.messages.at(-1)!.content).toEqual([
      { type: 'text', text: expect.stringMatching(/what is this\?$/) },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` } },
    ]);
  });

  it('refuses an oversized file (413, in a sentence), a form from elsewhere, two files, and a file with a command', async () => {
    bed = await startWebBed({ DOCUMENT_MAX_BYTES: '6000000' });
    const ann = user();
    const session = await ann.client.request('/api/session');
    expect(session.body).toMatchObject({ files: { maxBytes: 6_000_000 } });
    const header = { 'x-thinkthread-upload': '1' };
    const big = new Blob([new Uint8Array(6_100_000)], { type: 'application/pdf' });
    const oversized = await ann.client.upload(
      '/api/ask',
      form([
        ['text', 'read it'],
        ['file', big, 'big.pdf'],
      ]),
      header,
    );
    expect(oversized.status).toBe(413);
    expect(oversized.body).toEqual({ error: 'That file is too large: files over 6.0 MB are not read.' });

    const small = new Blob(['hello']);
    const elsewhere = await ann.client.upload(
      '/api/ask',
      form([
        ['text', 'hi'],
        ['file', small, 'a.txt'],
      ]),
    );
    expect(elsewhere.status).toBe(403);
    const two = await ann.client.upload(
      '/api/ask',
      form([
        ['text', 'hi'],
        ['file', small, 'a.txt'],
        ['file', small, 'b.txt'],
      ]),
      header,
    );
    expect(two).toMatchObject({ status: 400, body: { error: 'Send one file per question.' } });
    const command = await ann.client.upload(
      '/api/ask',
      form([
        ['text', '/reset'],
        ['file', small, 'a.txt'],
      ]),
      header,
    );
    expect(command).toMatchObject({
      status: 400,
      body: { error: 'Commands take no file; send it with a question.' },
    });
    const empty = await ann.client.upload('/api/ask', form([['text', '  ']]), header);
    expect(empty).toMatchObject({ status: 400, body: { error: 'empty question' } });
    // Nothing of these reached the model.
    expect(bed.test.fake.requests).toHaveLength(0);
  });
});

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
