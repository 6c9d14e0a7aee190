import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger.js';
import { createDiscordAdapter } from '../../../src/platforms/discord/create-discord-adapter.js';
import { WORDING } from '../../../src/platforms/shared/wording.js';
import { startFakeDiscord } from '../../fakes/discord-server.js';
import { startTestCore } from '../../helpers/test-core.js';
import { type DiscordBed, startDiscordBed } from './harness.js';

describe('Discord: start and stop', () => {
  let bed: DiscordBed | undefined;
  afterEach(async () => {
    await bed?.close();
    bed = undefined;
  });

  it('registers /ask, /reset, /memory, /usage, /tools, /settings, /schedule and /knowledge globally at startup', async () => {
    bed = await startDiscordBed();
    const put = bed.discord.calls.find((c) => c.method === 'PUT');
    expect(put?.path).toBe(`/applications/${bed.discord.applicationId}/commands`);
    expect(put?.body.map((c: { name: string }) => c.name).sort()).toEqual([
      'ask',
      'knowledge',
      'memory',
      'reset',
      'schedule',
      'settings',
      'tools',
      'usage',
    ]);
    const ask = put?.body.find((c: { name: string }) => c.name === 'ask');
    expect(ask.options[0]).toMatchObject({ name: 'question', type: 3, required: true });
  });

  it('reports ready for /readyz while connected, and not ready once stopped', async () => {
    bed = await startDiscordBed();
    expect(bed.adapter.readiness()).toEqual({ ready: true });
    await bed.adapter.stop();
    expect(bed.adapter.readiness()).toEqual({ ready: false, reason: 'not connected to the Discord gateway' });
  });

  it('registers the commands in DISCORD_GUILD_ID when set, so they show up at once', async () => {
    bed = await startDiscordBed({ DISCORD_GUILD_ID: '123456789012345678' });
    const put = bed.discord.calls.find((c) => c.method === 'PUT');
    expect(put?.path).toBe(`/applications/${bed.discord.applicationId}/guilds/123456789012345678/commands`);
  });

  it('refuses to start with a token Discord rejects, and says which setting to fix', async () => {
    const discord = await startFakeDiscord();
    discord.respond((c) => c.path === '/gateway/bot', {
      status: 401,
      body: { message: '401: Unauthorized', code: 0 },
    });
    const test = await startTestCore({ DISCORD_TOKEN: 'wrong-token', DISCORD_API_URL: discord.apiUrl });
    const adapter = createDiscordAdapter({
      config: test.config,
      assistant: test.core.assistant,
      logger: createLogger({ level: 'silent', secrets: [] }),
    });
    try {
      await expect(adapter.start()).rejects.toThrow(/DISCORD_TOKEN/);
      expect(adapter.readiness()).toMatchObject({ ready: false });
    } finally {
      await adapter.stop();
      await test.close();
      await discord.close();
    }
  });

  const ask = (bed: DiscordBed, content: string) =>
    bed.discord.sendMessage({
      channelId: bed.discord.channelId,
      author: bed.alice,
      content: `<@${bed.discord.bot.id}> ${content}`,
      mentions: [bed.discord.bot],
    });

  it('on stop, lets an answer in flight finish', async () => {
    bed = await startDiscordBed();
    bed.model.script({ content: 'Made it in time.', delayMs: 150 });
    const question = ask(bed, 'a question just before shutdown');
    await bed.discord.waitForCall((c) => c.body.message_reference?.message_id === question.id);
    await bed.adapter.stop();

    expect(bed.replyTo(question).content).toBe('Made it in time.');
  });

  it('on stop, cancels a run that does not finish in time and says so where the answer would have been', async () => {
    bed = await startDiscordBed({ SHUTDOWN_GRACE_MS: '50' });
    let asked: () => void = () => {};
    const modelAsked = new Promise<void>((resolve) => {
      asked = resolve;
    });
    bed.model.script(() => {
      asked();
      return { hang: true };
    });
    const question = ask(bed, 'a slow question');
    await modelAsked;
    await bed.adapter.stop();

    expect(bed.replyTo(question).content).toBe(`⚠️ ${WORDING.restarted}`);
  });
});
