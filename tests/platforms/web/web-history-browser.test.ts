import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { browserTestsRun, type FreshBrowser, launchChromium } from './chromium.js';
import { startWebBed, type WebBed } from './web-harness.js';

const calculatorStep = {
  content: 'I will use the calculator.',
  toolCalls: [{ name: 'calculator', arguments: { expression: '123 * 456 + 789' } }],
};
const CODE_ANSWER = 'Like this:\n\n```python\ndef total(): return 56877  # the sum\n```';

async function ask(page: Page, text: string): Promise<void> {
  await page.locator('#question').fill(text);
  await page.locator('#question').press('Enter');
}

const last = (page: Page) => page.locator('li.exchange').last();
const titles = (page: Page) => page.locator('#chat-list .open-chat').allTextContents();
const screenshots = process.env.UPDATE_WEB_CHAT_SCREENSHOT === 'true';

describe.runIf(browserTestsRun())(
  'web chat history in a real browser (Chromium)',
  { timeout: 90_000 },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'thinkthread-web-history-browser-'));
    // One database and one cookie secret across restarts, as a deployment has.
    const env = { DATABASE_URL: `sqlite:${join(dir, 'history.db')}`, WEB_SESSION_SECRET: 'h'.repeat(40) };
    let bed: WebBed | undefined;
    const browsers: FreshBrowser[] = [];
    const problems: string[] = [];

    const browse = async (url: string, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> => {
      const browser = await launchChromium();
      browsers.push(browser);
      await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: new URL(url).origin,
      });
      const page = browser.context.pages()[0] ?? (await browser.context.newPage());
      await page.emulateMedia({ colorScheme });
      page.on('pageerror', (err) => problems.push(err.message));
      page.on('console', (msg) => {
        if (msg.type() === 'error') problems.push(msg.text());
      });
      await page.goto(url);
      return page;
    };

    afterEach(async () => {
      for (const b of browsers.splice(0)) await b.close();
      await bed?.close();
      bed = undefined;
      expect(problems.splice(0)).toEqual([]);
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('lists two conversations, reopens each with its answers and steps, renames, deletes, and keeps them across a restart; another browser sees none', async () => {
      bed = await startWebBed(env);
      bed.test.fake.script(
        calculatorStep,
        { content: 'It is **56877**.' },
        calculatorStep,
        { content: 'Still 56877.' },
        calculatorStep,
        { content: CODE_ANSWER },
      );
      const page = await browse(bed.url);
      await ask(page, 'what is 123 * 456 + 789?');
      await last(page).locator('.answer', { hasText: 'It is 56877.' }).waitFor();
      await ask(page, 'check it again');
      await last(page).locator('.answer', { hasText: 'Still 56877.' }).waitFor();
      await page.getByRole('button', { name: 'New chat' }).click();
      await page.locator('#empty').waitFor();
      await ask(page, 'show it as code');
      const code = last(page).locator('.answer .code-block pre code');
      await code.waitFor();

      // Highlighted from the code's text; copied with its button, from the keyboard.
      expect(await code.locator('.tok-keyword', { hasText: 'def' }).count()).toBe(1);
      expect(await code.locator('.tok-comment').textContent()).toBe('# the sum');
      expect(await code.textContent()).toBe('def total(): return 56877  # the sum');
      await last(page).getByRole('button', { name: 'Copy the python code' }).focus();
      await page.keyboard.press('Enter');
      await page.locator('#status', { hasText: 'Copied to the clipboard.' }).waitFor();
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(
        'def total(): return 56877  # the sum',
      );
      await last(page).getByRole('button', { name: 'Copy the answer' }).click();
      await last(page)
        .getByRole('button', { name: 'Copy the answer' })
        .filter({ hasText: 'Copied' })
        .waitFor();
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(CODE_ANSWER);

      // Both listed after a reload, newest first, the open one marked.
      await page.reload();
      await page.locator('#chat-list .open-chat').nth(1).waitFor();
      expect(await titles(page)).toEqual(['show it as code', 'what is 123 * 456 + 789?']);
      expect(await page.locator('#chat-list [aria-current="page"]').textContent()).toBe('show it as code');

      // The first reopens from the keyboard with both answers, each with its steps.
      await page.locator('#chat-list .open-chat', { hasText: 'what is 123' }).focus();
      await page.keyboard.press('Enter');
      const exchanges = page.locator('li.exchange');
      await exchanges.nth(1).locator('.answer', { hasText: 'Still 56877.' }).waitFor();
      expect(await exchanges.count()).toBe(2);
      for (const n of [0, 1]) {
        await exchanges.nth(n).locator('details.steps summary', { hasText: '3 steps' }).waitFor();
      }
      await exchanges.nth(0).locator('summary').click();
      await exchanges
        .nth(0)
        .locator('.step.observation', { hasText: /56,?877/ })
        .waitFor();
      if (screenshots) {
        await page.locator('#question').focus();
        await page.screenshot({ path: 'docs/web-chat-history.png' });
      }

      // Rename the first; delete the second.
      page.once('dialog', (d) => d.accept('Arithmetic'));
      await page.getByRole('button', { name: 'Rename “what is 123 * 456 + 789?”' }).click();
      await page.locator('#chat-list .open-chat', { hasText: 'Arithmetic' }).waitFor();
      page.once('dialog', (d) => d.accept());
      await page.getByRole('button', { name: 'Delete “show it as code”' }).click();
      await page
        .locator('#chat-list .open-chat', { hasText: 'show it as code' })
        .waitFor({ state: 'detached' });
      expect(await titles(page)).toEqual(['Arithmetic']);

      // A restart of the bot on the same database: still there, with the steps.
      await bed.close();
      bed = await startWebBed(env);
      await page.goto(bed.url);
      await page.locator('#chat-list .open-chat', { hasText: 'Arithmetic' }).waitFor();
      await page.locator('#chat-list .open-chat', { hasText: 'Arithmetic' }).click();
      await exchanges.nth(1).locator('.answer', { hasText: 'Still 56877.' }).waitFor();
      await exchanges.nth(1).locator('details.steps summary', { hasText: '3 steps' }).waitFor();
      expect(await titles(page)).toEqual(['Arithmetic']);

      // Someone else, in another browser, sees none of it.
      const other = await browse(bed.url, 'dark');
      await other.locator('#chat-list li.muted', { hasText: 'Your chats appear here.' }).waitFor();
      expect(await other.locator('#chat-list .open-chat').count()).toBe(0);
      expect(await other.locator('li.exchange').count()).toBe(0);
      if (screenshots) {
        bed.test.fake.script({ content: CODE_ANSWER });
        await ask(other, 'show me some code');
        await last(other).locator('.code-block').waitFor();
        await other.locator('#question').focus();
        await other.screenshot({ path: 'docs/web-chat-dark.png' });
      }
    });
  },
);
