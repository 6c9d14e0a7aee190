import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { type BotProcess, spawnBot } from '../helpers/spawn-bot.js';
import { waitForHttp } from '../helpers/wait-for-http.js';

const METRICS_TOKEN = 'scrape-token-abcdefghijklmnopqrstuvwxyz';

describe('the bot on a public PORT with a HEALTH_PORT', { timeout: 90_000 }, () => {
  let bot: BotProcess | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    if (bot && bot.child.exitCode === null) {
      bot.child.kill('SIGTERM');
      await bot.exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
    bot = undefined;
    dir = undefined;
  });

  it('asks for METRICS_TOKEN on PORT, serves /metrics openly on HEALTH_PORT, and keeps /readyz terse on PORT', async () => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-exposure-'));
    const [port, healthPort] = [await freePort(), await freePort()];
    bot = spawnBot({
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      DATABASE_URL: `sqlite:${join(dir, 'bot.db')}`,
      WEB_CHAT: 'true',
      WEB_HOST: '0.0.0.0',
      WEB_AUTH: 'token',
      WEB_CHAT_TOKEN: 'web-chat-token-0123456789abcdef',
      PORT: String(port),
      HEALTH_PORT: String(healthPort),
      METRICS_TOKEN,
    });
    const exited = () => {
      if (bot!.child.exitCode === null) return false;
      throw new Error(`the bot exited: ${bot!.stderr()}`);
    };
    const publicUrl = `http://127.0.0.1:${port}`;
    const healthUrl = `http://127.0.0.1:${healthPort}`;
    const detailed = await waitForHttp(`${healthUrl}/readyz`, (status) => status === 200, {
      exited,
      timeoutMs: 60_000,
    });
    expect(JSON.parse(detailed.body)).toMatchObject({ status: 'ready', checks: { store: 'ok' } });
    const terse = await fetch(`${publicUrl}/readyz`);
    expect([terse.status, await terse.json()]).toEqual([200, { status: 'ready' }]);

    const refused = await fetch(`${publicUrl}/metrics`);
    expect([refused.status, refused.headers.get('www-authenticate')]).toEqual([401, 'Bearer']);
    const scraped = await fetch(`${publicUrl}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toMatch(/^thinkthread_questions_in_flight 0$/m);
    const internal = await fetch(`${healthUrl}/metrics`);
    expect(internal.status).toBe(200);
    expect(bot.stdout() + bot.stderr()).not.toContain(METRICS_TOKEN);
  });
});
