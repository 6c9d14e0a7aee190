import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { stdioTestServer, writeMcpJson } from '../../mcp/mcp-fixture.js';
import { browserTestsRun, type FreshBrowser, launchChromium } from './chromium.js';
import { startWebBed, type WebBed } from './web-harness.js';

const ECHO = { toolCalls: [{ name: 'test__echo', arguments: { text: '<img src=x onerror=alert(1)>' } }] };

// Starting Chromium takes seconds on a busy machine; the waits inside are all for conditions.
describe.runIf(browserTestsRun())(
  'the web chat: approving a tool call in a real browser',
  { timeout: 90_000 },
  () => {
    let bed: WebBed | undefined;
    let browser: FreshBrowser | undefined;
    let dir: string | undefined;
    const problems: string[] = [];

    const open = async (): Promise<Page> => {
      dir = mkdtempSync(join(tmpdir(), 'thinkthread-web-approvals-browser-'));
      bed = await startWebBed({
        MCP_CONNECT_TIMEOUT_MS: '60000',
        MCP_CONFIG: writeMcpJson(dir, { test: stdioTestServer() }),
      });
      browser = await launchChromium();
      const page = browser.context.pages()[0] ?? (await browser.context.newPage());
      page.on('pageerror', (err) => problems.push(err.message));
      page.on('dialog', (dialog) => problems.push(`dialog: ${dialog.message()}`));
      await page.goto(bed.url);
      return page;
    };

    afterEach(async () => {
      await browser?.close();
      await bed?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
      browser = undefined;
      bed = undefined;
      expect(problems.splice(0)).toEqual([]);
    });

    it('shows the call and its arguments as text, says what it waits for, and is approved by keyboard', async () => {
      const page = await open();
      bed!.test.fake.script(ECHO, { content: 'Echoed it.' });
      await page.locator('#question').fill('echo the tag');
      await page.locator('#question').press('Enter');
      const exchange = page.locator('li.exchange').last();
      const approval = exchange.locator('section.approval');
      await approval.waitFor();
      await exchange
        .locator('.answer .thinking', { hasText: 'Waiting for approval of test__echo…' })
        .waitFor();
      expect(await approval.locator('.approval-title').textContent()).toBe(
        'Approve this call of test__echo?',
      );
      expect(await approval.locator('pre.approval-args').textContent()).toBe(
        '{\n  "text": "<img src=x onerror=alert(1)>"\n}',
      );
      expect(await approval.locator('img').count()).toBe(0);
      expect(await page.locator('#status').textContent()).toBe('A tool call needs approval: test__echo.');
      await approval.getByRole('button', { name: 'Approve' }).focus();
      await page.keyboard.press('Enter');
      await exchange.locator('.answer .body', { hasText: 'Echoed it.' }).waitFor();
      await approval.waitFor({ state: 'detached' });
      // Nothing waits any more, and the header no longer says something does.
      expect(await page.locator('#status').textContent()).toBe('');
      // The steps fold once the answer is in: the note is there, unfolded or not.
      await exchange
        .locator('.step.note', { hasText: 'test__echo approved by web user.' })
        .waitFor({ state: 'attached' });
    });

    it('denies with a reason typed in the field (Enter in it denies)', async () => {
      const page = await open();
      bed!.test.fake.script(ECHO, { content: 'Not echoed.' });
      await page.locator('#question').fill('echo the tag');
      await page.locator('#question').press('Enter');
      const exchange = page.locator('li.exchange').last();
      const reason = exchange.getByLabel('Reason (optional, sent with Deny)');
      await reason.fill('no markup today');
      await reason.press('Enter');
      await exchange
        .locator('.step.note', { hasText: 'test__echo denied by web user: no markup today' })
        .waitFor({ state: 'attached' });
      await exchange.locator('.answer .body', { hasText: 'Not echoed.' }).waitFor();
      await page.locator('#status:empty').waitFor({ state: 'attached' });
      expect(JSON.stringify(bed!.test.fake.requests[1]!.body.messages)).toContain(
        'Their reason: no markup today',
      );
    });
  },
);
