import { describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { spawnBot } from '../helpers/spawn-bot.js';

describe('starting the bot on Postgres', { timeout: 60_000 }, () => {
  it('exits with a clear message naming host and port when Postgres is down, never the password', async () => {
    const port = await freePort();
    const bot = spawnBot({
      OPENAI_API_KEY: 'sk-test-key-123456',
      DATABASE_URL: `postgres://bot:start-s3cret@127.0.0.1:${port}/thinkthread`,
    });
    expect(await bot.exited).not.toBe(0);
    expect(bot.stderr()).toContain(
      `thinkthread cannot start: Cannot open the Postgres database thinkthread at 127.0.0.1:${port}: connect ECONNREFUSED`,
    );
    expect(bot.stderr()).not.toContain('start-s3cret');
  });
});
