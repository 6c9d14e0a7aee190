import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resumerThrough } from '../../../src/core/approvals/resume-through.js';
import { WORDING } from '../../../src/platforms/shared/wording.js';
import { stdioTestServer, writeMcpJson } from '../../mcp/mcp-fixture.js';
import { browserTestsRun, type FreshBrowser, launchChromium } from './chromium.js';
import { startWebBed, TOKEN, type WebBed } from './web-harness.js';

const ECHO = { content: 'I will echo it.', toolCalls: [{ name: 'test__echo', arguments: { text: 'hi' } }] };

describe.runIf(browserTestsRun())(
  'the web chat: approving after a restart in a real browser',
  { timeout: 90_000 },
  () => {
    let dir: string | undefined;
    let browser: FreshBrowser | undefined;
    const beds: WebBed[] = [];
    const problems: string[] = [];

    afterEach(async () => {
      await browser?.close();
      browser = undefined;
      for (const bed of beds.splice(0).reverse()) await bed.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
      dir = undefined;
      expect(problems.splice(0)).toEqual([]);
    });

    /** A web process on the shared database and cookie secret, started as the root starts it. */
    const startProcess = async (port?: number) => {
      const bed = await startWebBed(
        {
          DATABASE_URL: `sqlite:${join(dir!, 'shared.db')}`,
          WEB_SESSION_SECRET: 'b'.repeat(40),
          WEB_CHAT_TOKEN: TOKEN,
          SHUTDOWN_GRACE_MS: '50',
          MCP_CONNECT_TIMEOUT_MS: '60000',
          MCP_CONFIG: writeMcpJson(dir!, { test: stdioTestServer() }),
        },
        {},
        { approvals: { beatMs: 0, staleMs: 1 }, ...(port ? { port } : {}) },
      );
      beds.push(bed);
      bed.test.core.approvals?.start(resumerThrough({ web: bed.adapter.systemRuns! }));
      return bed;
    };

    it('the run ended by the restart keeps its Approve; after a reload, pressing it brings the answer', async () => {
      dir = mkdtempSync(join(tmpdir(), 'thinkthread-web-approvals-restart-browser-'));
      const a = await startProcess();
      a.test.fake.script(ECHO);
      browser = await launchChromium();
      const page = browser.context.pages()[0] ?? (await browser.context.newPage());
      page.on('pageerror', (err) => problems.push(err.message));
      page.on('dialog', (dialog) => problems.push(`dialog: ${dialog.message()}`));
      await page.goto(a.url);
      await page.locator('#token').fill(TOKEN);
      await page.locator('#token').press('Enter');
      await page.locator('#question').fill('echo hi');
      await page.locator('#question').press('Enter');
      const asked = page.locator('li.exchange', { hasText: 'echo hi' }).first();
      await asked.locator('section.approval').waitFor();

      // A shuts down: the open page sees the run end with the restart sentence, its buttons still there.
      await a.test.core.approvals?.stop();
      await a.close();
      await asked.locator('.answer', { hasText: WORDING.restartedWaiting }).waitFor();
      expect(await asked.getByRole('button', { name: 'Approve' }).isVisible()).toBe(true);

      // B starts where A was; the page, reloaded, shows the kept run with its Approve.
      const b = await startProcess(Number(new URL(a.url).port));
      b.test.fake.script({ content: 'Echoed after the restart.' });
      await page.reload();
      const kept = page.locator('li.exchange', { hasText: 'echo hi' }).first();
      await kept.locator('.answer', { hasText: WORDING.restartedWaiting }).waitFor();
      const approve = kept.getByRole('button', { name: 'Approve' });
      await approve.waitFor();
      expect(await kept.locator('pre.approval-args').textContent()).toBe('{\n  "text": "hi"\n}');
      await approve.click();
      await kept.locator('.approval-said', { hasText: 'Approved.' }).waitFor();

      const resumed = page.locator('li.exchange', { hasText: 'Going on after a restart' });
      await resumed.locator('.answer .body', { hasText: 'Echoed after the restart.' }).waitFor();
      expect(await resumed.locator('.question .text').textContent()).toContain(
        '▶️ Going on after a restart (test__echo approved by web user), for you: echo hi',
      );
      await resumed
        .locator('.step.note', { hasText: 'test__echo approved by web user.' })
        .waitFor({ state: 'attached' });

      // Reloaded again: the old run's buttons are gone (its call is decided), the new answer is there once.
      await page.reload();
      await page.locator('li.exchange .answer', { hasText: 'Echoed after the restart.' }).waitFor();
      expect(await page.locator('li.exchange').count()).toBe(2);
      expect(await page.locator('section.approval').count()).toBe(0);
      expect(b.test.fake.requests).toHaveLength(1);
    });
  },
);
