import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`; `.ci/run` installs it when missing). */
export const CHROMIUM = '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Whether the browser tests run: with Chromium present. Without it they fail in CI (where `.ci/run`
 * should have installed it) and are skipped elsewhere, with a notice.
 */
export function browserTestsRun(): boolean {
  if (existsSync(CHROMIUM) || process.env.CI === 'true') return true;
  console.warn(
    `Skipping the web chat's browser tests: no Chromium at ${CHROMIUM} (install it with: apt-get install -y chromium).`,
  );
  return false;
}

/** A fresh browser: its own profile folder, so no cookie or cache is shared between tests. */
export interface FreshBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Launches Chromium headless on a new profile, phone-sized when `phone`. */
export async function launchChromium(options: { phone?: boolean } = {}): Promise<FreshBrowser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is missing at ${CHROMIUM}: install it with apt-get install -y chromium`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'thinkthread-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport: options.phone ? { width: 390, height: 780 } : { width: 1000, height: 760 },
    });
    return {
      context,
      async close() {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(profile, { recursive: true, force: true });
    throw err;
  }
}
