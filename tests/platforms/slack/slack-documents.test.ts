import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { visibleText } from '../../fakes/slack-server.js';
import { makeDocx, makePdf, makeXlsx, makeZipBomb } from '../../helpers/documents.js';
import { ask, mention, type SlackHarness, startSlackHarness, topLevel } from './slack-harness.js';

const questionText = (h: SlackHarness) => {
  const content = h.model.requests.at(-1)!.body.messages.at(-1)!.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
};

describe('slack: documents attached to a question', () => {
  let h: SlackHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('reads a PDF, a Word file and a sheet with their pages and headings; refuses the hostile ones and still answers', async () => {
    h = await startSlackHarness('http', { env: { SLACK_STREAMING: 'edit' } });
    const pdf = h.slack.addFile(
      'travel.pdf',
      'application/pdf',
      Buffer.from(await makePdf(['Travel policy', 'Hotels up to 150 EUR a night.'])),
    );
    const docx = h.slack.addFile(
      'oncall.docx',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      Buffer.from(await makeDocx([{ heading: 'Rotation', text: 'Swaps need the manager’s OK.' }])),
    );
    const xlsx = h.slack.addFile(
      'budget.xlsx',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      Buffer.from(await makeXlsx({ Budget: [['Laptops', 1200]] })),
    );
    const encrypted = h.slack.addFile(
      'secret.pdf',
      'application/pdf',
      readFileSync(join(import.meta.dirname, '../../fixtures/documents/encrypted.pdf')),
    );
    const bomb = h.slack.addFile('bomb.docx', 'application/octet-stream', Buffer.from(makeZipBomb(120)));
    h.model.script({ content: 'Hotels up to 150 EUR; swaps need an OK.' });
    await ask(h, mention('what do these say?', { files: [pdf, docx, xlsx, encrypted, bomb] }));

    const text = questionText(h);
    expect(text).toContain('Attached file "travel.pdf" (application/pdf');
    expect(text).toMatch(/\[page 2\]\nHotels up to 150 EUR a night\./);
    expect(text).toContain('## Rotation\nSwaps need the manager’s OK.');
    expect(text).toContain('## Sheet Budget\nLaptops\t1200');
    // Quoted as the files' text, never as the asker's words.
    expect(text).toMatch(/<untrusted source="attachment" name="oncall.docx">/);
    expect(text).toContain(
      'Attached file "secret.pdf" (application/pdf, 1.7 KB): skipped (it is password-protected).',
    );
    expect(text).toContain('skipped (it unpacks to more than 100 MB)');
    const answer = visibleText(topLevel(h)[0]!);
    expect(answer).toContain('Hotels up to 150 EUR; swaps need an OK.');
    expect(answer).toContain('Skipped secret.pdf: it is password-protected.');
    expect(answer).toContain('Skipped bomb.docx: it unpacks to more than 100 MB.');
  });

  it('names and skips a document over DOCUMENT_MAX_BYTES without downloading it', async () => {
    h = await startSlackHarness('http', { env: { SLACK_STREAMING: 'edit', DOCUMENT_MAX_BYTES: '500' } });
    const pdf = h.slack.addFile('big.pdf', 'application/pdf', Buffer.from(await makePdf(['x'.repeat(50)])));
    h.model.script({ content: 'Too big.' });
    await ask(h, mention('read this', { files: [pdf] }));
    expect(questionText(h)).toContain('skipped (documents over 500 bytes are not read)');
    expect(h.slack.downloads).toEqual([]);
  });
});
