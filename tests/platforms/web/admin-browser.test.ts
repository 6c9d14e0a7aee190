import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/core/ports/store.js';
import type { UsageRecord } from '../../../src/core/ports/usage-store.js';
import { browserTestsRun, type FreshBrowser, launchChromium } from './chromium.js';
import { type SignInBed, SLACK_PRINCIPAL, signInOverHttp, startSlackSignInBed } from './sign-in-harness.js';
import { WebClient } from './web-client.js';

const SCREENSHOTS = join(import.meta.dirname, '../../../docs/screenshots');
/** The README's screenshots are written only when asked for (as the web chat's are), so a test run leaves the tree clean. */
const screenshot = (page: Page, name: string, fullPage: boolean) =>
  process.env.UPDATE_WEB_CHAT_SCREENSHOT === 'true'
    ? page.screenshot({ path: join(SCREENSHOTS, name), fullPage })
    : page.screenshot({ fullPage });
const DAY = 86_400_000;
const QUESTION = 'What is 6 * 7? <img src=x onerror="document.title=1">';

/** A usage record as the governor writes it, `daysAgo` days before now. */
const record = (daysAgo: number, over: Partial<UsageRecord> = {}): UsageRecord => ({
  at: Date.now() - daysAgo * DAY,
  platform: 'discord',
  key: 'discord:g1:c1',
  userId: 'discord:42',
  model: 'test-model',
  protocol: 'tools',
  outcome: 'answered',
  modelCalls: 1,
  promptTokens: 1000,
  completionTokens: 100,
  cachedTokens: 500,
  tools: { wikipedia: 1 },
  durationMs: 2000,
  ...over,
});

/** Seeds a month of usage beside the one question asked through the core. */
async function seed(store: Store): Promise<void> {
  await store.record(record(1));
  await store.record(record(2, { userId: 'discord:43', durationMs: 9000 }));
  await store.record(
    record(3, {
      outcome: 'refused',
      modelCalls: 0,
      promptTokens: 0,
      completionTokens: 0,
      cachedTokens: 0,
      tools: {},
    }),
  );
  await store.record(record(20, { platform: 'slack', key: 'slack:T0ACME01:C0OLD', userId: SLACK_PRINCIPAL }));
  await store.recordFeedback({
    runId: 'm1',
    platform: 'discord',
    key: 'discord:g1:c1',
    userId: 'discord:42',
    vote: 'up',
    at: Date.now() - DAY,
  });
  await store.recordFeedback({
    runId: 'm2',
    platform: 'discord',
    key: 'discord:g1:c1',
    userId: 'discord:43',
    vote: 'down',
    at: Date.now() - DAY,
  });
}

/** A browser that did not sign in, and its run: scheduled, its deploy call denied after a minute's wait. */
const BROWSER = 'web:1a2bCDEFghijKLMNopqrST';
async function seedWebRun(store: Store): Promise<void> {
  const asked = record(0, { platform: 'web', key: 'web:chat1', userId: BROWSER, tools: { deploy: 1 } });
  const admitted = await store.admit(asked, { rates: [], budgets: [] });
  if (!admitted.admitted) throw new Error('not admitted');
  await store.complete(admitted.id, asked);
  await store.saveRunLog({
    usageId: admitted.id,
    at: asked.at,
    platform: 'web',
    key: 'web:chat1',
    userId: BROWSER,
    question: 'Deploy the site?',
    answer: 'I did not deploy: it was denied.',
    steps: [
      { kind: 'notice', at: 0, code: 'scheduled', text: 'Asked by the schedule ab12cd34, as its creator.' },
      { kind: 'action', at: 10, step: 1, callId: 'c1', tool: 'deploy', input: '{}' },
      {
        kind: 'approval',
        at: 65_010,
        callId: 'c1',
        tool: 'deploy',
        outcome: 'denied',
        by: 'Bob',
        reason: 'not on Friday',
        waitedMs: 65_000,
      },
      {
        kind: 'observation',
        at: 65_011,
        step: 1,
        callId: 'c1',
        tool: 'deploy',
        text: 'Not run: denied.',
        ok: false,
        ms: 65_001,
      },
      { kind: 'answer', at: 66_000, text: 'I did not deploy: it was denied.' },
    ],
  });
}

/** Headings whose words a line break cuts in two, as the browser laid them out. */
const brokenHeadings = (page: Page) =>
  page.evaluate<string[]>(`[...document.querySelectorAll('thead th')].flatMap((cell) => {
    const text = cell.firstChild;
    if (!(text instanceof Text) || !cell.checkVisibility()) return [];
    return [...text.data.matchAll(/\\S+/g)].flatMap((word) => {
      const range = document.createRange();
      range.setStart(text, word.index);
      range.setEnd(text, word.index + word[0].length);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      return lines.size > 1 ? [cell.textContent + ': ' + word[0]] : [];
    });
  })`);

const total = (page: Page, name: string) => page.locator(`[data-total="${name}"]`).getAttribute('data-value');

describe.runIf(browserTestsRun())('the admin page in a real browser (Chromium)', { timeout: 90_000 }, () => {
  let signIn: SignInBed<unknown> | undefined;
  let browser: FreshBrowser | undefined;
  let problems: string[] = [];

  const open = async (bed: SignInBed<unknown>, phone = false): Promise<Page> => {
    signIn = bed;
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchChromium({ phone });
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    problems = [];
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('console', (msg) => {
      if (msg.type() === 'error' && !/status of 40[13]/.test(msg.text())) problems.push(msg.text());
    });
    await page.goto(new URL('/admin', bed.bed.url).toString());
    return page;
  };

  /** Signs in from the admin page's gate by keyboard; sign-in brings the browser back to /admin. */
  const signInAsAdmin = async (page: Page) => {
    const link = page.getByRole('link', { name: 'Sign in' });
    await link.waitFor();
    await link.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(new URL('/admin', signIn!.bed.url).toString());
  };

  afterEach(async () => {
    await browser?.close();
    await signIn?.close();
    browser = undefined;
    signIn = undefined;
    // No script error, and nothing blocked by the Content-Security-Policy.
    expect(problems).toEqual([]);
  });

  it('shows an admin the charts’ numbers, a run’s steps and the settings, by keyboard', async () => {
    const bed = await startSlackSignInBed({
      ADMIN_USERS: SLACK_PRINCIPAL,
      LLM_PRICE_INPUT_PER_MTOK: '2',
      LLM_PRICE_OUTPUT_PER_MTOK: '10',
      DEFAULT_TIMEZONE: 'UTC',
    });
    const { test } = bed.bed;
    test.fake.script(
      {
        content: null,
        toolCalls: [
          { name: 'calculator', arguments: { expression: '6*7' } },
          { name: 'current_time', arguments: { timezone: 'Not/AZone' } },
        ],
        usage: { prompt_tokens: 120, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 100 } },
      },
      { content: 'It is **42**.', usage: { prompt_tokens: 200, completion_tokens: 8 } },
    );
    const outcome = await test.core.assistant.ask(
      {
        key: 'slack:T0ACME01:C0GENERAL',
        author: 'Alice',
        text: QUESTION,
        asker: { platform: 'slack', userId: 'U0ALICE01', principal: SLACK_PRINCIPAL, dm: false },
      },
      () => {},
    );
    expect(outcome.status).toBe('answered');
    await seed(test.store);

    const page = await open(bed);
    await signInAsAdmin(page);
    await page.locator('#who', { hasText: 'Signed in as Alice Example' }).waitFor();
    await page.locator('[data-total="questions"]').waitFor();

    // 30 days: the question asked here (slack), three discord records (one refused) and one 20 days ago.
    expect(await total(page, 'questions')).toBe('4');
    expect(await total(page, 'tokens')).toBe(String(320 + 28 + 3 * 1100));
    expect(Number(await total(page, 'cost'))).toBeCloseTo(((320 + 3000) * 2 + (28 + 300) * 10) / 1e6, 9);
    expect(await total(page, 'cached')).toBe(String(100 + 1500));
    expect(await total(page, 'votes')).toBe('1/1');
    expect(await total(page, 'refused')).toBe('1/0');
    const questions = page.locator('figure[data-chart="questions"]');
    expect(await questions.getAttribute('data-sum-slack')).toBe('2');
    expect(await questions.getAttribute('data-sum-discord')).toBe('2');
    await questions.locator('canvas').waitFor();
    const tools = page.locator('#top-tools');
    await tools.locator('tr', { hasText: 'wikipedia' }).locator('td', { hasText: '3' }).waitFor();
    await page.locator('#failing-tools tr', { hasText: 'current_time' }).waitFor();
    await page
      .locator(`#top-people tr span[title="${SLACK_PRINCIPAL}"]`, { hasText: 'Alice Example' })
      .waitFor();
    // The numbers drawn are the API's.
    const api = await page.evaluate<{ charts: { totals: { questions: number } } }>(
      "fetch('/admin/api/stats?days=30').then((r) => r.json())",
    );
    expect(api.charts.totals.questions).toBe(4);
    await screenshot(page, 'admin-overview.png', true);

    // 7 days leaves out the record of 20 days ago; a platform filter leaves out the others.
    await page.locator('#days').selectOption('7');
    await page.locator('#filters button[type="submit"]').press('Enter');
    await page.locator('[data-total="questions"][data-value="3"]').waitFor();
    await page.locator('#f-platform').selectOption('discord');
    await page.locator('#filters button[type="submit"]').press('Enter');
    await page.locator('[data-total="questions"][data-value="2"]').waitFor();
    await page.locator('#f-platform').selectOption('');
    // A call someone denied never ran: it is no failing tool.
    await seedWebRun(test.store);
    await page.locator('#filters button[type="submit"]').press('Enter');
    await page.locator('#top-tools tr', { hasText: 'deploy' }).waitFor();
    expect(await page.locator('#failing-tools tr', { hasText: 'deploy' }).count()).toBe(0);

    // Runs: found by a word of the question, opened from the keyboard.
    await page.getByRole('link', { name: 'Runs' }).press('Enter');
    await page.locator('#run-list tbody tr').first().waitFor();
    await page.locator('#q').fill('6 * 7');
    await page.locator('#q').press('Enter');
    const row = page.locator('#run-list tbody tr', { hasText: 'What is 6 * 7?' });
    // The unfiltered list holds the row too: wait for the search's list, not for the row.
    await expect.poll(() => page.locator('#run-list tbody tr').count(), { timeout: 15_000 }).toBe(1);
    await row.waitFor();
    expect(await row.locator('[data-tokens]').getAttribute('data-tokens')).toBe('348');
    // People by name: the signed-in one by the name they signed in with, their principal a hover away.
    const who = row.locator('td').nth(1).locator('span');
    expect(await who.textContent()).toBe('Alice Example');
    expect(await who.getAttribute('title')).toBe(SLACK_PRINCIPAL);
    await row.getByRole('link').press('Enter');
    await page.locator('#run-steps li').first().waitFor();
    expect(await page.locator('#run-question').textContent()).toBe(QUESTION);
    expect(await page.locator('#run-question img').count()).toBe(0);
    expect(await page.title()).toBe('thinkthread admin');
    const kinds = await page
      .locator('#run-steps li')
      .evaluateAll((items) => items.map((i) => i.getAttribute('data-kind')));
    expect(kinds).toEqual([
      'model',
      'thought',
      'action',
      'action',
      'observation',
      'observation',
      'model',
      'answer',
    ]);
    const firstCall = page.locator('#run-steps li[data-kind="model"] .detail').first();
    expect(await firstCall.getAttribute('data-prompt')).toBe('120');
    expect(await firstCall.getAttribute('data-completion')).toBe('20');
    await page.locator('#run-steps li[data-kind="action"]', { hasText: '{"expression":"6*7"}' }).waitFor();
    await page
      .locator('#run-steps li[data-kind="observation"] .failed', { hasText: 'current_time' })
      .waitFor();
    expect(await page.locator('#run-answer').textContent()).toBe('It is **42**.');
    // The answer is printed once, under Answer.
    expect(await page.locator('#run-steps li[data-kind="answer"] pre').count()).toBe(0);
    expect(await page.locator('#run-approvals-part').isVisible()).toBe(false);
    await screenshot(page, 'admin-run.png', true);

    // A browser's scheduled run whose call was denied: named as `browser 1a2b`, marked, its approval told.
    await page.getByRole('link', { name: '← All runs' }).press('Enter');
    await page.locator('#q').fill('Deploy the site');
    await page.locator('#q').press('Enter');
    const webRow = page.locator('#run-list tbody tr', { hasText: 'Deploy the site?' });
    await webRow.waitFor();
    expect(await webRow.locator('td').nth(1).textContent()).toBe('browser 1a2b');
    await webRow.getByRole('link').press('Enter');
    await page.locator('[data-began="scheduled"]').waitFor();
    expect(await page.locator('#run-meta').textContent()).toContain('browser 1a2b');
    const approval = page.locator('#run-approvals tbody tr');
    expect(await approval.locator('th, td').allTextContents()).toEqual([
      'deploy',
      'denied',
      'Bob',
      expect.stringMatching(/\d/),
      '65.0 s',
      'not on Friday',
    ]);
    const denied = page.locator('#run-steps li[data-kind="observation"] .detail');
    expect(await denied.textContent()).toContain('not run');
    expect(await denied.getAttribute('class')).not.toContain('failed');
    expect(await page.locator('#run-steps li[data-kind="approval"] .detail').textContent()).toBe(
      ' · deploy · denied by Bob after 65.0 s',
    );

    await page.getByRole('link', { name: 'Settings' }).press('Enter');
    await page
      .locator('#settings-body tr', { hasText: 'ADMIN_USERS' })
      .locator('td', { hasText: SLACK_PRINCIPAL })
      .waitFor();
    await page
      .locator('#settings-body tr', { hasText: 'built-in' })
      .locator('td', { hasText: 'calculator' })
      .waitFor();
  });

  it('fits a phone: the overview in one column, the runs list scrolls sideways', async () => {
    const bed = await startSlackSignInBed({ ADMIN_USERS: SLACK_PRINCIPAL, DEFAULT_TIMEZONE: 'UTC' });
    await seed(bed.bed.test.store);
    const page = await open(bed, true);
    await signInAsAdmin(page);
    await page.locator('figure[data-chart="questions"] canvas').waitFor();
    const width = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(390);
    // Column headings break between words, never inside one.
    expect(await brokenHeadings(page)).toEqual([]);
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.locator('#run-list tbody tr').first().waitFor();
    expect(await brokenHeadings(page)).toEqual([]);
    await page.getByRole('link', { name: 'Overview' }).click();
    await screenshot(page, 'admin-phone.png', false);
  });

  it('draws the cached share from 0% to 100% when nothing was cached', async () => {
    const bed = await startSlackSignInBed({ ADMIN_USERS: SLACK_PRINCIPAL, DEFAULT_TIMEZONE: 'UTC' });
    await bed.bed.test.store.record(record(1, { cachedTokens: 0 }));
    const page = await open(bed);
    await signInAsAdmin(page);
    const cached = page.locator('figure[data-chart="cached"][data-y-ticks]');
    await cached.waitFor();
    const ticks = (await cached.getAttribute('data-y-ticks'))!.split(' ');
    expect(ticks[0]).toBe('0.0%');
    expect(ticks.at(-1)).toBe('100.0%');
    expect(await total(page, 'cached')).toBe('0');
  });

  it('refuses an anonymous visitor and a signed-in person who is not an admin', async () => {
    const bed = await startSlackSignInBed({ ADMIN_USERS: 'slack:U0SOMEONEELSE' });
    const page = await open(bed);
    await page.locator('#gate-text', { hasText: 'Sign in as an admin' }).waitFor();
    expect(await page.locator('#overview').isVisible()).toBe(false);
    await signInAsAdmin(page);
    await page.locator('#gate-text', { hasText: 'Only admins' }).waitFor();
    expect(await page.locator('#overview').isVisible()).toBe(false);
    expect(await page.locator('#tabs').isVisible()).toBe(false);
  });

  it('lists the signed-in sessions and ends a person’s from the Sessions tab', async () => {
    const bed = await startSlackSignInBed({ ADMIN_USERS: SLACK_PRINCIPAL });
    // Bob signs in elsewhere first.
    bed.provider.signInAs({ userId: 'U0BOB0001', teamId: 'T0ACME01', name: 'Bob' });
    const bob = new WebClient(bed.bed.url);
    expect(await signInOverHttp(bob)).toBe(bed.bed.url);
    bed.provider.signInAs({ userId: 'U0ALICE01', teamId: 'T0ACME01', name: 'Alice Example' });
    const page = await open(bed);
    await signInAsAdmin(page);
    await page.getByRole('link', { name: 'Sessions' }).click();
    const row = page.locator('#sessions-body tr', { hasText: 'slack:T0ACME01:U0BOB0001' });
    await row.waitFor();
    expect(await page.locator('#sessions-body tbody tr').count()).toBe(2);
    await row.getByRole('button', { name: 'End every session of Bob' }).click();
    await page.locator('#status', { hasText: 'Ended 1 session of Bob.' }).waitFor();
    await row.waitFor({ state: 'detached' });
    expect((await bob.request('/api/session')).status).toBe(401);
  });
});
