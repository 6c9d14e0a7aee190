import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../fakes/openai-server.js';
import { makeDocx, makePdf } from '../../helpers/documents.js';
import { browserTestsRun, type FreshBrowser, launchChromium } from './chromium.js';
import { startWebBed, type WebBed } from './web-harness.js';

/** What the model was asked last: the question with what came with it. */
const asked = (request: RecordedRequest) => {
  const content = request.body.messages.at(-1)!.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
};

/** What `search_knowledge` told the model in a request (its last tool message). */
const observation = (request: RecordedRequest) =>
  String(request.body.messages.filter((m) => m.role === 'tool').at(-1)?.content ?? '');

/** Chooses `file` with the Attach button, through the browser's own file chooser. */
async function attachWithButton(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.locator('#attach').click()]);
  await chooser.setFiles(file);
}

/** In the page: a File in a DataTransfer, dropped on the chat or pasted into the message box. */
const HAND_OVER = `({ how, name, type, data }) => {
  const transfer = new DataTransfer();
  transfer.items.add(new File([new Uint8Array(data)], name, { type }));
  const init = { bubbles: true, cancelable: true };
  if (how === 'drop') {
    const chat = document.getElementById('chat');
    chat.dispatchEvent(new DragEvent('dragover', { ...init, dataTransfer: transfer }));
    chat.dispatchEvent(new DragEvent('drop', { ...init, dataTransfer: transfer }));
  } else {
    document.getElementById('question').dispatchEvent(new ClipboardEvent('paste', { ...init, clipboardData: transfer }));
  }
}`;

/** Hands the page `bytes` as a file, in a `drop` on the chat or a `paste` into the message box. */
async function handOver(page: Page, how: 'drop' | 'paste', name: string, type: string, bytes: Uint8Array) {
  await page.evaluate(`(${HAND_OVER})(${JSON.stringify({ how, name, type, data: [...bytes] })})`);
}

/** Types `text` and sends it with Enter. */
async function ask(page: Page, text: string): Promise<void> {
  await page.locator('#question').fill(text);
  await page.locator('#question').press('Enter');
}

const last = (page: Page) => page.locator('li.exchange').last();

describe.runIf(browserTestsRun())(
  'the web chat: files in a real browser (Chromium)',
  { timeout: 60_000 },
  () => {
    let bed: WebBed | undefined;
    let browser: FreshBrowser | undefined;
    let problems: string[] = [];

    const open = async (env: Record<string, string> = {}): Promise<Page> => {
      bed = await startWebBed(env);
      browser = await launchChromium();
      const page = browser.context.pages()[0] ?? (await browser.context.newPage());
      problems = [];
      page.on('pageerror', (err) => problems.push(err.message));
      page.on('console', (msg) => {
        // A 413 is the server refusing a file, which the page then shows; it is not a fault of the page.
        if (msg.type() === 'error' && !/status of (401|413)/.test(msg.text())) problems.push(msg.text());
      });
      await page.goto(bed.url);
      await page.locator('#question').waitFor();
      return page;
    };

    afterEach(async () => {
      await browser?.close();
      await bed?.close();
      browser = undefined;
      bed = undefined;
      // No script error, and nothing blocked by the Content-Security-Policy.
      expect(problems).toEqual([]);
    });

    it('attaches a PDF with the button: its name on the question, its text to the model, then searched later', async () => {
      const page = await open();
      const { fake } = bed!.test;
      const pdf = Buffer.from(await makePdf(['Travel policy', 'Hotels up to 150 EUR a night.']));
      await attachWithButton(page, { name: 'travel.pdf', mimeType: 'application/pdf', buffer: pdf });
      await page.locator('#attached-name', { hasText: 'travel.pdf' }).waitFor();

      fake.script({ content: 'Hotels may cost up to **150 EUR** a night.' });
      await ask(page, 'what does the travel policy allow for hotels?');
      const exchange = last(page);
      await exchange.locator('.question .files .file', { hasText: 'travel.pdf' }).waitFor();
      await exchange.locator('.answer .body strong', { hasText: '150 EUR' }).waitFor();
      await page.locator('#attached').waitFor({ state: 'hidden' });
      const text = asked(fake.requests.at(-1)!);
      expect(text).toMatch(/<untrusted source="attachment" name="travel.pdf">/);
      expect(text).toContain('Hotels up to 150 EUR a night.');

      fake.script(
        {
          content: 'Looking.',
          toolCalls: [{ name: 'search_knowledge', arguments: { query: 'hotel price' } }],
        },
        { content: 'Up to 150 EUR (travel.pdf p. 1).' },
      );
      await ask(page, 'remind me, how much may a hotel cost?');
      await last(page).locator('.answer .body', { hasText: 'Up to 150 EUR (travel.pdf p. 1).' }).waitFor();
      expect(observation(fake.requests.at(-1)!)).toContain('Hotels up to 150 EUR a night.');
      // Reloaded, the question still names its file.
      await page.reload();
      await page.locator('li.exchange .question .files .file', { hasText: 'travel.pdf' }).waitFor();
    });

    it('takes a Word file dropped on the chat and a note pasted into the box, one per question', async () => {
      const page = await open();
      const { fake } = bed!.test;
      const docx = await makeDocx([{ heading: 'Rotation', text: 'Swaps need the manager’s OK.' }]);
      await handOver(page, 'drop', 'oncall.docx', '', docx);
      await page.locator('#attached-name', { hasText: 'oncall.docx' }).waitFor();
      fake.script({ content: 'Swaps need an OK.' });
      // A file alone is a question too.
      await page.locator('#question').press('Enter');
      await last(page).locator('.question .files .file', { hasText: 'oncall.docx' }).waitFor();
      await last(page).locator('.answer .body', { hasText: 'Swaps need an OK.' }).waitFor();
      expect(asked(fake.requests.at(-1)!)).toContain('## Rotation\nSwaps need the manager’s OK.');

      await handOver(page, 'paste', 'ferry.md', 'text/markdown', Buffer.from('# Ferry\nLeaves at 9.'));
      await page.locator('#attached-name', { hasText: 'ferry.md' }).waitFor();
      fake.script({ content: 'At 9.' });
      await ask(page, 'when does the ferry leave?');
      await last(page).locator('.answer .body', { hasText: 'At 9.' }).waitFor();
      expect(asked(fake.requests.at(-1)!)).toContain('# Ferry\nLeaves at 9.');
    });

    it('refuses a file too large in a sentence, unsent; an encrypted PDF is a sentence under the answer', async () => {
      const page = await open({ DOCUMENT_MAX_BYTES: '5000000' });
      const { fake } = bed!.test;
      const big = Buffer.alloc(5_100_000);
      await attachWithButton(page, { name: 'scan.pdf', mimeType: 'application/pdf', buffer: big });
      await page
        .locator('li.error', { hasText: 'scan.pdf is too large: files over 5.0 MB are not read.' })
        .waitFor();
      expect(await page.locator('#attached').isHidden()).toBe(true);

      const encrypted = readFileSync(join(import.meta.dirname, '../../fixtures/documents/encrypted.pdf'));
      await attachWithButton(page, { name: 'secret.pdf', mimeType: 'application/pdf', buffer: encrypted });
      fake.script({ content: 'I could not open the file, but here is what I know.' });
      await ask(page, 'what is in the secret file?');
      const answer = last(page).locator('.answer');
      await answer.locator('.body', { hasText: 'I could not open the file' }).waitFor();
      await answer.locator('.note', { hasText: 'Skipped secret.pdf: it is password-protected.' }).waitFor();
      expect(fake.requests).toHaveLength(1);
    });

    it('shows the server’s 413 in a sentence and keeps the question when the page did not know the limit', async () => {
      const page = await open({ DOCUMENT_MAX_BYTES: '5000000' });
      // As a page loaded before the limit was lowered: it knows no limit, so the server refuses the file.
      await page.route('**/api/session', async (route) => {
        const res = await route.fetch();
        const body = await res.json();
        await route.fulfill({ response: res, json: { ...body, files: undefined } });
      });
      await page.reload();
      await page.locator('#question').waitFor();
      await attachWithButton(page, {
        name: 'scan.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.alloc(5_200_000),
      });
      await page.locator('#question').fill('what does the scan say?');
      await page.locator('#question').press('Enter');
      await page
        .locator('li.error', { hasText: 'That file is too large: files over 5.0 MB are not read.' })
        .waitFor();
      expect(await page.locator('#question').inputValue()).toBe('what does the scan say?');
      expect(await page.locator('#attached').isHidden()).toBe(true);
      expect(bed!.test.fake.requests).toHaveLength(0);
    });
  },
);
