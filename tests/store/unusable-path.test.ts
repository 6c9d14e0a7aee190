import { afterEach, describe, expect, it } from 'vitest';
import { type BotProcess, spawnBot } from '../helpers/spawn-bot.js';

describe.skipIf(process.platform !== 'linux')('a DATABASE_URL under /proc', () => {
  let bot: BotProcess | undefined;
  afterEach(() => {
    if (bot?.child.exitCode === null) bot.child.kill('SIGKILL');
  });

  it('stops the bot at start with a message that the path is not usable, instead of hanging', async () => {
    bot = spawnBot({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', DATABASE_URL: 'sqlite:/proc/x/t.db' });
    bot.child.stdin?.end();
    expect(await bot.exited).not.toBe(0);
    expect(bot.stderr()).toMatch(/\/proc\/x\/t\.db.*not usable.*DATABASE_URL/s);
  });
});
