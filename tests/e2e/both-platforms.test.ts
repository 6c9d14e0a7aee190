import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord-server.js';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import { eventCallback, type FakeSlack, startFakeSlack, visibleText } from '../fakes/slack-server.js';
import { freePort } from '../helpers/free-port.js';
import { type BotProcess, spawnBot } from '../helpers/spawn-bot.js';
import { waitForHttp } from '../helpers/wait-for-http.js';
import { mention } from '../platforms/slack/slack-harness.js';

const DISCORD_TOKEN = 'discord-process-secret-123456';
const SLACK_BOT_TOKEN = 'xoxb-both-secret-123456';
const SLACK_APP_TOKEN = 'xapp-both-secret-123456';

// A spawned bot starts tsx and connects for real: slow on a loaded machine.
describe('one process serving Discord and Slack together (started like `npm start`)', {
  timeout: 90_000,
}, () => {
  let model: FakeOpenAI;
  let discord: FakeDiscord;
  let slack: FakeSlack;
  let bot: BotProcess | undefined;

  afterEach(async () => {
    if (bot && bot.child.exitCode === null) bot.child.kill('SIGKILL');
    await model?.close();
    await discord?.close();
    await slack?.close();
  });

  it('answers on both platforms, keeps their memories apart, and exits cleanly on SIGTERM', async () => {
    model = await startFakeOpenAI({
      fallback: (req) => ({
        content: `Answer #${req.body.messages.filter((m) => m.role === 'user').length}`,
      }),
    });
    discord = await startFakeDiscord();
    slack = await startFakeSlack({ users: { UALICE: { name: 'alice', display_name: 'Alice' } } });
    const dir = mkdtempSync(join(tmpdir(), 'thinkthread-both-'));
    const healthPort = await freePort();
    bot = spawnBot({
      OPENAI_BASE_URL: model.url,
      DATABASE_URL: `sqlite:${join(dir, 'bot.db')}`,
      DISCORD_TOKEN,
      DISCORD_API_URL: discord.apiUrl,
      SLACK_BOT_TOKEN,
      SLACK_APP_TOKEN,
      SLACK_API_URL: slack.apiUrl,
      HEALTH_PORT: String(healthPort),
      STREAM_EDIT_INTERVAL_MS: '10',
      LOG_LEVEL: 'info',
    });

    // Both platforms are connected (GET /readyz says so) before any question is sent.
    const ready = await waitForHttp(`http://127.0.0.1:${healthPort}/readyz`, (status) => status === 200, {
      exited: () => bot!.child.exitCode !== null,
      timeoutMs: 60_000,
    });
    expect(JSON.parse(ready.body).checks).toMatchObject({ discord: 'ok', slack: 'ok' });

    const alice = discord.user('alice');
    const question = discord.sendMessage({
      channelId: discord.channelId,
      author: alice,
      content: `<@${discord.bot.id}> hello from discord`,
      mentions: [discord.bot],
    });
    await discord.waitForCall((c) => c.method === 'PATCH' && JSON.stringify(c.body).includes('Answer #1'));
    expect(
      discord.messages(discord.channelId).some((m) => m.message_reference?.message_id === question.id),
    ).toBe(true);

    await slack.socket.send('events_api', eventCallback(mention('hello from slack')));
    await slack.waitFor(() => slack.messages.find((m) => visibleText(m) === 'Answer #1'), 20_000);

    // Each platform's channel started its own conversation: the Slack request carried no Discord turn.
    const slackRequest = model.requests.find((r) =>
      JSON.stringify(r.body.messages).includes('hello from slack'),
    );
    expect(JSON.stringify(slackRequest!.body.messages)).not.toContain('hello from discord');

    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
    for (const secret of [DISCORD_TOKEN, SLACK_BOT_TOKEN, SLACK_APP_TOKEN]) {
      expect(bot.stdout() + bot.stderr()).not.toContain(secret);
    }
  });
});
