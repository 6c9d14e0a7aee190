import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { WORDING } from '../../../src/platforms/shared/wording.js';
import { browserTestsRun, type FreshBrowser, launchChromium } from './chromium.js';
import {
  type SignInBed,
  SLACK_PRINCIPAL,
  signInOverHttp,
  startDiscordSignInBed,
  startSlackSignInBed,
} from './sign-in-harness.js';
import { WebClient } from './web-client.js';

/** Types `text` into the message box and sends it with Enter, as a keyboard user would. */
async function ask(page: Page, text: string): Promise<void> {
  await page.locator('#question').fill(text);
  await page.locator('#question').press('Enter');
}

const last = (page: Page) => page.locator('li.exchange').last();

/** The status of GET /api/session as the page's own scripts see it. */
const sessionStatus = (page: Page) =>
  page.evaluate<number>("fetch('/api/session', { cache: 'no-store' }).then((r) => r.status)");

// Starting Chromium takes seconds on a busy machine; the waits inside are all for conditions.
describe.runIf(browserTestsRun())('web sign-in in a real browser (Chromium)', { timeout: 60_000 }, () => {
  let signIn: SignInBed<unknown> | undefined;
  let browser: FreshBrowser | undefined;
  let problems: string[] = [];

  const open = async (bed: SignInBed<unknown>): Promise<Page> => {
    signIn = bed;
    browser = await launchChromium();
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    problems = [];
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('console', (msg) => {
      if (msg.type() === 'error' && !/status of 401/.test(msg.text())) problems.push(msg.text());
    });
    await page.goto(bed.bed.url);
    return page;
  };

  afterEach(async () => {
    await browser?.close();
    await signIn?.close();
    browser = undefined;
    signIn = undefined;
    // No script error, and nothing blocked by the Content-Security-Policy.
    expect(problems).toEqual([]);
  });

  it('signs in with Slack from the keyboard, asks, is limited as the Slack user is, is refused /settings, and signs out', async () => {
    // The authorize page is on another site (localhost, not 127.0.0.1), as slack.com is: the way back is
    // a cross-site navigation, which the SameSite=Lax sign-in cookie survives.
    const bed = await startSlackSignInBed({ RATE_LIMIT_USER: '2/hour' }, { authorizeHost: 'localhost' });
    const { test } = bed.bed;
    // Alice asks once in Slack, through the core, as the Slack adapter would.
    test.fake.script({ content: 'Asked in Slack.' }, { content: 'Hello from the web.' });
    await test.core.assistant.ask(
      {
        key: 'slack:T0ACME01:C0GENERAL',
        author: 'Alice',
        text: 'a question in Slack',
        asker: { platform: 'slack', userId: 'U0ALICE01', principal: SLACK_PRINCIPAL, dm: false },
      },
      () => {},
    );

    const page = await open(bed);
    const button = page.getByRole('button', { name: 'Sign in with Slack' });
    await button.waitFor();
    expect(await page.locator('#chat').isVisible()).toBe(false);
    await button.focus();
    await page.keyboard.press('Enter');

    await page.locator('#chat').waitFor();
    await page.locator('#who', { hasText: 'Signed in as Alice Example' }).waitFor();
    expect(new URL(page.url()).origin).toBe(new URL(bed.bed.url).origin);
    const authorize = bed.provider.requests.find((r) => r.url.pathname === '/openid/connect/authorize');
    expect(authorize?.headers.host).toMatch(/^localhost:/);

    await ask(page, 'hello');
    await last(page).locator('.answer', { hasText: 'Hello from the web.' }).waitFor();
    // Her second question of the hour, counting the one in Slack: over RATE_LIMIT_USER=2/hour.
    await ask(page, 'and another');
    await last(page).locator('.answer .problem', { hasText: 'limit of 2 questions per hour' }).waitFor();
    expect(test.fake.requests).toHaveLength(2);

    await ask(page, '/settings prompt Be rude.');
    await page.locator('li.note', { hasText: WORDING.settingsAdminsOnly }).waitFor();

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('button', { name: 'Sign in with Slack' }).waitFor();
    expect(await page.locator('#chat').isVisible()).toBe(false);
    expect(await sessionStatus(page)).toBe(401);
  });

  it('signs in with Discord, asks, and signs out everywhere: a second browser’s session ends too', async () => {
    const page = await open(await startDiscordSignInBed());
    const { test } = signIn!.bed;
    test.fake.script({ content: 'Hello, Bob.' });
    await page.getByRole('button', { name: 'Sign in with Discord' }).click();
    await page.locator('#who', { hasText: 'Signed in as Bob' }).waitFor();
    await ask(page, 'hello');
    await last(page).locator('.answer', { hasText: 'Hello, Bob.' }).waitFor();
    expect(await sessionStatus(page)).toBe(200);
    // Another browser of Bob's: the same person signed in again, with a session of its own.
    const elsewhere = new WebClient(signIn!.bed.url);
    expect(await signInOverHttp(elsewhere)).toBe(signIn!.bed.url);
    expect((await elsewhere.request('/api/session')).status).toBe(200);
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByRole('button', { name: 'Sign in with Discord' }).waitFor();
    expect(await sessionStatus(page)).toBe(401);
    expect((await elsewhere.request('/api/session')).status).toBe(401);
  });

  it('says so when signing in did not work, and offers the button again', async () => {
    const page = await open(await startSlackSignInBed({}, { clientSecret: 'not-the-secret' }));
    await page.getByRole('button', { name: 'Sign in with Slack' }).click();
    await page.locator('#sign-in-error', { hasText: 'Signing in did not work' }).waitFor();
    await page.getByRole('button', { name: 'Sign in with Slack' }).waitFor();
  });
});
