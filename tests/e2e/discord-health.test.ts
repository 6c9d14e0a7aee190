import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WORDING } from '../../src/platforms/shared/wording.js';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord-server.js';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import { freePort } from '../helpers/free-port.js';
import { type BotProcess, spawnBot } from '../helpers/spawn-bot.js';
import { waitForHttp } from '../helpers/wait-for-http.js';

// A spawned bot starts tsx and connects for real: slow on a loaded machine.
describe('a Discord-only deployment (started like `npm start`) with HEALTH_PORT', { timeout: 90_000 }, () => {
  let model: FakeOpenAI;
  let discord: FakeDiscord;
  let bot: BotProcess | undefined;

  afterEach(async () => {
    if (bot && bot.child.exitCode === null) bot.child.kill('SIGKILL');
    await model?.close();
    await discord?.close();
  });

  it('answers /healthz and /readyz, turns not-ready on SIGTERM, and ends the answer in flight with a note', async () => {
    let modelAsked: () => void = () => {};
    const asked = new Promise<void>((resolve) => {
      modelAsked = resolve;
    });
    model = await startFakeOpenAI({
      fallback: () => {
        modelAsked();
        return { hang: true };
      },
    });
    discord = await startFakeDiscord();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    bot = spawnBot({
      OPENAI_BASE_URL: model.url,
      DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'thinkthread-health-')), 'bot.db')}`,
      DISCORD_TOKEN: 'discord-health-secret-123456',
      DISCORD_API_URL: discord.apiUrl,
      HEALTH_PORT: String(port),
      SHUTDOWN_GRACE_MS: '5000',
      STREAM_EDIT_INTERVAL_MS: '10',
    });
    const exited = () => bot!.child.exitCode !== null;

    const ready = await waitForHttp(`${base}/readyz`, (status) => status === 200, {
      exited,
      timeoutMs: 60_000,
    });
    expect(JSON.parse(ready.body)).toMatchObject({
      status: 'ready',
      checks: { process: 'ok', store: 'ok', discord: 'ok' },
    });
    const health = await fetch(`${base}/healthz`);
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);

    const question = discord.sendMessage({
      channelId: discord.channelId,
      author: discord.user('alice'),
      content: `<@${discord.bot.id}> a question that will not finish`,
      mentions: [discord.bot],
    });
    await asked;
    // Metrics on the same server: the question is in flight, and no label carries its text.
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    const exposition = await metrics.text();
    expect(exposition).toMatch(/^thinkthread_questions_in_flight 1$/m);
    expect(exposition).not.toContain('will not finish');
    bot.child.kill('SIGTERM');

    // While answers in flight get their grace period, the replica says it is not ready (so no new traffic).
    const draining = await waitForHttp(`${base}/readyz`, (status) => status === 503, {
      exited,
      timeoutMs: 60_000,
    });
    expect(JSON.parse(draining.body).reason).toMatch(/process: shutting down/);
    expect(await bot.exited).toBe(0);
    const reply = discord
      .messages(discord.channelId)
      .find((m) => m.message_reference?.message_id === question.id);
    expect(reply?.content).toBe(`⚠️ ${WORDING.restarted}`);
    expect(bot.stdout() + bot.stderr()).not.toContain('discord-health-secret-123456');
  });
});
