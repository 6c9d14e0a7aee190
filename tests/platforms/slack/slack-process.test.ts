import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../../fakes/openai-server.js';
import {
  eventCallback,
  type FakeSlack,
  sendSigned,
  startFakeSlack,
  visibleText,
} from '../../fakes/slack-server.js';
import { type BotProcess, spawnBot } from '../../helpers/spawn-bot.js';
import { mention } from './slack-harness.js';

const BOT_TOKEN = 'xoxb-process-secret-123456';
const APP_TOKEN = 'xapp-process-secret-123456';
const SIGNING_SECRET = 'process-signing-secret-123456';

/** A port free right now (the bot needs a fixed PORT to be reachable in HTTP mode). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('slack in the real process (started like `npm start`)', () => {
  let slack: FakeSlack;
  let model: FakeOpenAI;
  let bot: BotProcess | undefined;
  afterEach(async () => {
    if (bot && bot.child.exitCode === null) bot.child.kill('SIGKILL');
    await model?.close();
    await slack?.close();
  });

  const start = async (mode: 'http' | 'socket', port: number) => {
    slack = await startFakeSlack({ users: { UALICE: { name: 'alice', display_name: 'Alice' } } });
    model = await startFakeOpenAI();
    model.script({ content: 'Hello from the process.' });
    const dir = mkdtempSync(join(tmpdir(), 'thinkthread-slack-'));
    bot = spawnBot({
      OPENAI_BASE_URL: model.url,
      DATABASE_URL: `sqlite:${join(dir, 'bot.db')}`,
      SLACK_BOT_TOKEN: BOT_TOKEN,
      ...(mode === 'socket' ? { SLACK_APP_TOKEN: APP_TOKEN } : { SLACK_SIGNING_SECRET: SIGNING_SECRET }),
      SLACK_API_URL: slack.apiUrl,
      PORT: String(port),
      STREAM_EDIT_INTERVAL_MS: '10',
      LOG_LEVEL: 'debug',
    });
    return bot;
  };

  const answered = () =>
    slack.waitFor(() => slack.messages.find((m) => visibleText(m) === 'Hello from the process.'), 20_000);

  const stopCleanly = async (b: BotProcess) => {
    b.child.kill('SIGTERM');
    expect(await b.exited).toBe(0);
    for (const secret of [BOT_TOKEN, APP_TOKEN, SIGNING_SECRET]) expect(b.stderr()).not.toContain(secret);
  };

  it('Socket Mode: connects, answers a mention, and exits cleanly on SIGTERM', async () => {
    const b = await start('socket', 0);
    await slack.waitFor(() => slack.socket.connections > 0, 20_000);
    await slack.socket.send('events_api', eventCallback(mention('hello')));
    await answered();
    await stopCleanly(b);
  });

  it('HTTP mode: serves /healthz and signed events on PORT, and exits cleanly on SIGTERM', async () => {
    const port = await freePort();
    const b = await start('http', port);
    await vi.waitFor(
      async () => {
        const res = await fetch(`http://127.0.0.1:${port}/healthz`);
        expect(res.status).toBe(200);
      },
      { timeout: 20_000, interval: 100 },
    );
    const res = await sendSigned(
      `http://127.0.0.1:${port}/slack/events`,
      { json: eventCallback(mention('hello')) },
      { signingSecret: SIGNING_SECRET },
    );
    expect(res.status).toBe(200);
    await answered();
    await stopCleanly(b);
  });
});
