/**
 * The admin page's Evals tab in a real browser (Chromium): the pass rate per set and model, and a 👎 with a
 * reason turned into a case in two clicks (Accept, then Add once the expected answer is written in).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { browserTestsRun, type FreshBrowser, launchChromium } from './chromium.js';
import { type SignInBed, SLACK_PRINCIPAL, startSlackSignInBed } from './sign-in-harness.js';

describe.runIf(browserTestsRun())(
  'the admin page’s evals in a real browser (Chromium)',
  { timeout: 90_000 },
  () => {
    let bed: SignInBed<unknown> | undefined;
    let browser: FreshBrowser | undefined;
    const problems: string[] = [];

    afterEach(async () => {
      await browser?.close();
      await bed?.close();
      browser = undefined;
      bed = undefined;
      // No script error, and nothing blocked by the Content-Security-Policy.
      expect(problems).toEqual([]);
    });

    it('shows the trend and turns a 👎 into a case in two clicks', async () => {
      bed = await startSlackSignInBed({ ADMIN_USERS: SLACK_PRINCIPAL });
      const { test } = bed.bed;
      mkdirSync(join(test.dir, 'evals'), { recursive: true });
      const kept = (at: number, passed: number) =>
        JSON.stringify({
          at,
          sets: ['starter'],
          model: 'gpt-a',
          protocol: 'tools',
          recorded: true,
          passed,
          total: 2,
          cases: [0, 1].map((i) => ({ set: 'starter', id: `c${i}`, pass: i < passed })),
        });
      writeFileSync(
        join(test.dir, 'evals', 'runs.jsonl'),
        `${kept(Date.now() - 60_000, 1)}\n${kept(Date.now(), 2)}\n`,
      );
      test.fake.script(
        { content: null, toolCalls: [{ name: 'calculator', arguments: { expression: '6*7' } }] },
        { content: 'It is 41.' },
      );
      const key = 'slack:T0ACME01:C0GENERAL';
      const asked = await test.core.assistant.ask(
        {
          key,
          author: 'Alice',
          text: 'What is 6 * 7?',
          asker: { platform: 'slack', userId: 'U0ALICE01', principal: SLACK_PRINCIPAL, dm: false },
        },
        () => {},
      );
      expect(asked.status).toBe('answered');
      await test.core.assistant.feedback({
        platform: 'slack',
        key,
        userId: SLACK_PRINCIPAL,
        runId: 'm1',
        vote: 'down',
        comment: 'six times seven is 42',
      });

      browser = await launchChromium();
      const page = browser.context.pages()[0] ?? (await browser.context.newPage());
      page.on('pageerror', (err) => problems.push(err.message));
      page.on('console', (msg) => {
        if (msg.type() === 'error' && !/status of 40[13]/.test(msg.text())) problems.push(msg.text());
      });
      await page.goto(new URL('/admin', bed.bed.url).toString());
      await page.getByRole('link', { name: 'Sign in' }).click();
      await page.waitForURL(new URL('/admin', bed.bed.url).toString());
      await page.getByRole('link', { name: 'Evals' }).click();

      const line = page.locator('#eval-trend tbody tr[data-set="starter"]');
      await line.waitFor();
      expect(await line.textContent()).toContain('100.0% (2/2)');
      const candidate = page.locator('.candidate', { hasText: 'six times seven is 42' });
      await candidate.waitFor();
      expect(await candidate.textContent()).toContain('It is 41.');

      await candidate.getByRole('button', { name: 'Accept as a case' }).click();
      await page.keyboard.type('42');
      await candidate.getByRole('button', { name: 'Add to evals' }).click();
      await page.locator('#status', { hasText: 'to set from-feedback' }).waitFor();
      await candidate.waitFor({ state: 'detached' });
      const written = readFileSync(join(test.dir, 'evals', 'sets', 'from-feedback.jsonl'), 'utf8');
      expect(JSON.parse(written)).toMatchObject({ question: 'What is 6 * 7?', checks: { contains: ['42'] } });
    });
  },
);
