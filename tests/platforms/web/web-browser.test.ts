import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGate } from '../../helpers/gate.js';
import { browserTestsRun, type FreshBrowser, launchChromium } from './chromium.js';
import { startWebBed, TOKEN, type WebBed } from './web-harness.js';

const calculatorStep = {
  content: 'I will use the calculator.',
  toolCalls: [{ name: 'calculator', arguments: { expression: '123 * 456 + 789' } }],
};

/** Types `text` into the message box and sends it with Enter, as a keyboard user would. */
async function ask(page: Page, text: string): Promise<void> {
  await page.locator('#question').fill(text);
  await page.locator('#question').press('Enter');
}

/** The last exchange on the page. */
const last = (page: Page) => page.locator('li.exchange').last();

// Starting Chromium takes seconds on a busy machine; the waits inside are all for conditions.
describe.runIf(browserTestsRun())('the web chat in a real browser (Chromium)', { timeout: 60_000 }, () => {
  let bed: WebBed | undefined;
  let browser: FreshBrowser | undefined;

  const open = async (
    env: Record<string, string> = {},
    { phone = false, chunkSize }: { phone?: boolean; chunkSize?: number } = {},
  ): Promise<Page> => {
    bed = await startWebBed(env, chunkSize ? { chunkSize } : {});
    browser = await launchChromium({ phone });
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('console', (msg) => {
      if (msg.type() === 'error' && !/status of 401/.test(msg.text())) problems.push(msg.text());
    });
    pageProblems = problems;
    await page.goto(bed.url);
    return page;
  };
  let pageProblems: string[] = [];

  beforeEach(() => {
    pageProblems = [];
  });
  afterEach(async () => {
    await browser?.close();
    await bed?.close();
    browser = undefined;
    bed = undefined;
    // No script error, and nothing blocked by the Content-Security-Policy.
    expect(pageProblems).toEqual([]);
  });

  it('shows the steps live, open, then the answer 56877 with the steps folded; they unfold and fold again', async () => {
    const page = await open();
    const gate = createGate();
    bed!.test.fake.script(calculatorStep, { content: 'The result is **56877**.', until: gate.promise });
    await ask(page, 'what is 123 * 456 + 789?');

    const exchange = last(page);
    await exchange.locator('.question', { hasText: 'what is 123 * 456 + 789?' }).waitFor();
    await exchange.locator('.step.thought', { hasText: 'Thought: I will use the calculator.' }).waitFor();
    await exchange
      .locator('.step.action', { hasText: 'calculator {"expression":"123 * 456 + 789"}' })
      .waitFor();
    await exchange.locator('.step.observation', { hasText: /56,?877/ }).waitFor();
    await exchange.locator('details.steps[open]').waitFor();
    await exchange.locator('.answer .thinking').waitFor();
    await page.locator('#stop:not([hidden])').waitFor();

    gate.open();
    await exchange.locator('.answer .body strong', { hasText: '56877' }).waitFor();
    await exchange.locator('details.steps:not([open])').waitFor();
    await page.locator('#stop').waitFor({ state: 'hidden' });
    expect(await exchange.locator('.answer').textContent()).not.toContain('I will use the calculator');

    await exchange.locator('summary').click();
    await exchange.locator('details.steps[open] .step.thought').waitFor();
    await exchange.locator('summary').press('Enter');
    await exchange.locator('details.steps:not([open])').waitFor();

    if (process.env.UPDATE_WEB_CHAT_SCREENSHOT === 'true') {
      await exchange.locator('summary').press('Enter');
      await exchange.locator('details.steps[open]').waitFor();
      await page.locator('#question').focus();
      await page.screenshot({ path: 'docs/web-chat.png', clip: { x: 0, y: 0, width: 1000, height: 450 } });
    }
  });

  it('shows the conversation again after a reload, and starts afresh with "New chat"', async () => {
    const page = await open();
    bed!.test.fake.script({ content: 'Noted: Atlas.' }, calculatorStep, { content: 'It is 56877.' });
    await ask(page, 'my project is called Atlas');
    await last(page).locator('.answer', { hasText: 'Noted: Atlas.' }).waitFor();
    await ask(page, 'what is 123 * 456 + 789');
    await last(page).locator('.answer', { hasText: 'It is 56877.' }).waitFor();

    await page.reload();
    const exchanges = page.locator('li.exchange');
    await exchanges.nth(1).locator('.answer', { hasText: 'It is 56877.' }).waitFor();
    expect(await exchanges.count()).toBe(2);
    // Each answer is kept with its steps (the first took none), folded.
    expect(await exchanges.nth(0).textContent()).toContain('my project is called Atlas');
    expect(await exchanges.nth(0).textContent()).toContain('Noted: Atlas.');
    expect(await exchanges.nth(0).locator('details.steps').isHidden()).toBe(true);
    await exchanges.nth(1).locator('details.steps:not([open]) summary', { hasText: '3 steps' }).waitFor();

    await page.getByRole('button', { name: 'New chat' }).click();
    await page.locator('#empty').waitFor();
    expect(await page.locator('li.exchange').count()).toBe(0);
    await page.reload();
    await page.locator('#empty').waitFor();
    expect(await page.locator('li.exchange').count()).toBe(0);
  });

  it('stops an answer mid-stream with the Stop button; nothing is remembered', async () => {
    // The core holds back the first 160 characters (they might precede a tool call): one big chunk, then silence.
    const page = await open({}, { chunkSize: 200 });
    const slow = `The answer is coming, slowly. ${'Word by word. '.repeat(20)}`;
    bed!.test.fake.script({ content: slow, stallMs: 20_000 });
    await ask(page, 'tell me slowly');
    await last(page).locator('.answer .body', { hasText: 'The answer is coming, slowly.' }).waitFor();
    await page.getByRole('button', { name: 'Stop' }).click();
    await last(page).locator('.answer .problem', { hasText: 'Cancelled.' }).waitFor();
    await page.locator('#send:not([disabled])').waitFor();
    await ask(page, '/memory');
    const command = page.locator('li.note', { hasText: 'Turns kept verbatim: 0' });
    await command.waitFor();
    // The command itself is shown, as the asker's, above its reply.
    expect(await command.locator('.question .text').textContent()).toBe('/memory');
  });

  it('shows <script> and <img onerror> in an answer as text, running neither', async () => {
    const page = await open();
    const hostile =
      'Look: <script>window.pwned = 1</script> and <img src=x onerror="window.pwned = 2"> done.';
    bed!.test.fake.script({ content: hostile });
    await ask(page, 'say something nasty');
    const answer = last(page).locator('.answer .body');
    await answer.locator('p', { hasText: 'done.' }).waitFor();
    expect(await answer.textContent()).toContain(
      '<script>window.pwned = 1</script> and <img src=x onerror="window.pwned = 2">',
    );
    expect(await answer.locator('script, img').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as { pwned?: number }).pwned)).toBeUndefined();
  });

  it('asks for WEB_CHAT_TOKEN once, refusing a wrong one', async () => {
    const page = await open({ WEB_CHAT_TOKEN: TOKEN });
    await page.locator('#token-form').waitFor();
    expect(await page.locator('#chat').isVisible()).toBe(false);
    await page.locator('#token').fill('tok-wrong');
    await page.locator('#token').press('Enter');
    await page.locator('#token-error', { hasText: 'That token is not right.' }).waitFor();

    await page.locator('#token').fill(TOKEN);
    await page.getByRole('button', { name: 'Open the chat' }).click();
    await page.locator('#chat').waitFor();
    bed!.test.fake.script({ content: 'Hello there.' });
    await ask(page, 'hello');
    await last(page).locator('.answer', { hasText: 'Hello there.' }).waitFor();

    await page.reload();
    await page.locator('#chat li.exchange').waitFor();
    expect(await page.locator('#token-form').isVisible()).toBe(false);
    expect(await page.content()).not.toContain(TOKEN);
  });

  it('fits a phone-sized screen: nothing wider than it', async () => {
    const page = await open({}, { phone: true });
    bed!.test.fake.script({
      content: `A long line: ${'x'.repeat(300)}\n\n\`\`\`\n${'code '.repeat(80)}\n\`\`\``,
    });
    await ask(page, 'give me something wide');
    await last(page).locator('.answer pre').waitFor();
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
