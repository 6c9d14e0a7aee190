/**
 * The admin page's Knowledge tab in a real browser (Chromium): KNOWLEDGE_DIR's files as indexed, a file that
 * could not be read with the reason, and Re-index reading a file added since.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { browserTestsRun, type FreshBrowser, launchChromium } from './chromium.js';
import { type SignInBed, SLACK_PRINCIPAL, startSlackSignInBed } from './sign-in-harness.js';

describe.runIf(browserTestsRun())(
  'the admin page’s knowledge in a real browser (Chromium)',
  { timeout: 90_000 },
  () => {
    let bed: SignInBed<unknown> | undefined;
    let browser: FreshBrowser | undefined;
    let dir: string | undefined;
    const problems: string[] = [];

    afterEach(async () => {
      await browser?.close();
      await bed?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
      browser = undefined;
      bed = undefined;
      // No script error, and nothing blocked by the Content-Security-Policy.
      expect(problems).toEqual([]);
    });

    it('lists the files with their passages and problems, and re-indexes on a press', async () => {
      dir = mkdtempSync(join(tmpdir(), 'thinkthread-kb-'));
      writeFileSync(
        join(dir, 'handbook.md'),
        '# Rotation\n\nSwaps need approval.\n\n# Escalation\n\nPage the lead.\n',
      );
      writeFileSync(join(dir, 'broken.pdf'), 'not really a PDF');
      bed = await startSlackSignInBed({ ADMIN_USERS: SLACK_PRINCIPAL, KNOWLEDGE_DIR: dir });

      browser = await launchChromium();
      const page = browser.context.pages()[0] ?? (await browser.context.newPage());
      page.on('pageerror', (err) => problems.push(err.message));
      page.on('console', (msg) => {
        if (msg.type() === 'error' && !/status of 40[13]/.test(msg.text())) problems.push(msg.text());
      });
      await page.goto(new URL('/admin', bed.bed.url).toString());
      await page.getByRole('link', { name: 'Sign in' }).click();
      await page.waitForURL(new URL('/admin', bed.bed.url).toString());
      await page.getByRole('link', { name: 'Knowledge' }).click();

      const rows = page.locator('#knowledge-body tbody tr');
      await rows.first().waitFor();
      expect(await rows.allTextContents()).toEqual([
        expect.stringMatching(/^broken\.pdf0.*it is damaged or not a valid PDF$/),
        expect.stringMatching(/^handbook\.md2/),
      ]);
      expect(await page.locator('#knowledge-body p').textContent()).toBe(
        '2 files, 2 passages; 1 could not be read.',
      );

      writeFileSync(join(dir, 'travel.md'), '# Hotels\n\nUp to 150 EUR a night.\n');
      await page.getByRole('button', { name: 'Re-index now' }).click();
      await page
        .locator('#status', { hasText: 'Re-indexed: 2 read, 1 could not be read, 0 removed.' })
        .waitFor();
      expect(await rows.allTextContents()).toContainEqual(expect.stringMatching(/^travel\.md1/));
    });
  },
);
