import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { browserTestsRun, type FreshBrowser, launchChromium } from './chromium.js';
import { startWebBed, type WebBed } from './web-harness.js';

/** Links a tool result could steer the model into writing, each trying to add an attribute to the page. */
const INJECTED =
  'Read https://evil.example/[x](https://b.example/onmouseover=alert(1)//) ' +
  'and https://evil.example/[y](https://b.example/onmouseover=window.pwned=1//) ' +
  'or [z](https://c.example/"onmouseover="window.pwned=2) done.';

// Scripts run in the page are strings: the project's TypeScript has no DOM types.
/** Records every Content-Security-Policy violation in the page, naming the element that caused it. */
const WATCH_VIOLATIONS = `
  window.violations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.violations.push((e.target.id || e.target.tagName) + ': ' + e.violatedDirective);
  }, true);
`;
/** An element given an inline handler by the page itself, which the policy must refuse and report. */
const ADD_CANARY = `document.body.insertAdjacentHTML('beforeend',
  '<button id="canary" onmouseover="window.pwned = 3">?</button>')`;

// Starting Chromium takes seconds on a busy machine; the waits inside are all for conditions.
describe.runIf(browserTestsRun())(
  'links injected into an answer, in a real browser (Chromium)',
  { timeout: 60_000 },
  () => {
    let bed: WebBed | undefined;
    let browser: FreshBrowser | undefined;

    afterEach(async () => {
      await browser?.close();
      await bed?.close();
      browser = undefined;
      bed = undefined;
    });

    it('renders them as plain links: hovering and clicking runs nothing and breaks no policy', async () => {
      bed = await startWebBed();
      browser = await launchChromium();
      // Nothing leaves the machine: the links' sites answer from here, so a click shows where it went.
      await browser.context.route(
        (url) => url.hostname.endsWith('.example'),
        (route) => route.fulfill({ contentType: 'text/plain', body: 'elsewhere' }),
      );
      const page: Page = browser.context.pages()[0] ?? (await browser.context.newPage());
      await page.addInitScript({ content: WATCH_VIOLATIONS });
      const problems: string[] = [];
      page.on('pageerror', (err) => problems.push(err.message));
      await page.goto(bed.url);

      bed.test.fake.script({ content: INJECTED });
      await page.locator('#question').fill('where can I read about this?');
      await page.locator('#question').press('Enter');
      const answer = page.locator('li.exchange').last().locator('.answer .body');
      await answer.locator('p', { hasText: 'done.' }).waitFor();

      const links = answer.locator('a');
      expect(await links.evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href')]))).toEqual(
        [
          ['https://evil.example/', 'https://evil.example/'],
          ['x', 'https://b.example/onmouseover=alert(1)//'],
          ['https://evil.example/', 'https://evil.example/'],
          ['y', 'https://b.example/onmouseover=window.pwned=1//'],
          ['https://c.example/', 'https://c.example/'],
        ],
      );
      expect(await answer.textContent()).toContain('"onmouseover="window.pwned=2) done.');
      const attributes = await answer.evaluate((body) =>
        [...body.querySelectorAll('*')].flatMap((e) =>
          [...e.attributes].map((a) => `${e.tagName}[${a.name}]`),
        ),
      );
      expect(attributes.filter((a) => !/^A\[(href|target|rel)\]$/.test(a))).toEqual([]);
      expect(await page.locator('[onmouseover]').count()).toBe(0);

      for (const link of await links.all()) await link.hover();
      for (const name of ['x', 'y']) {
        const link = answer.getByRole('link', { name, exact: true });
        const href = await link.getAttribute('href');
        const [opened] = await Promise.all([browser.context.waitForEvent('page'), link.click()]);
        await opened.waitForURL(href!);
        expect(await opened.locator('body').textContent()).toBe('elsewhere');
        await opened.close();
      }

      // The page's own inline handler is refused and reported after any the links caused: the watcher
      // works, and nothing came before it.
      await page.evaluate(ADD_CANARY);
      await page.locator('#canary').hover();
      await page.waitForFunction('window.violations.length > 0');
      expect(await page.evaluate<string[]>('window.violations')).toEqual([
        expect.stringMatching(/^canary: script-src/),
      ]);
      expect(await page.evaluate('window.pwned')).toBeUndefined();
      expect(problems).toEqual([]);
    });
  },
);
