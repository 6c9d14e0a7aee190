import { afterAll, describe, expect, it } from 'vitest';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord-server.js';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import { freePort } from '../helpers/free-port.js';
import { type BotProcess, spawnBot } from '../helpers/spawn-bot.js';
import { waitForHttp } from '../helpers/wait-for-http.js';
import { waitUntil } from '../helpers/wait-until.js';
import { dropSchema, freshSchema, postgresSuite, withSchema } from '../store/postgres-test-db.js';

const HOLDING = 'holding a Discord shard';

postgresSuite('Discord gateway leader on Postgres', (databaseUrl) => {
  describe('Discord gateway leader on Postgres', () => {
    const schema = freshSchema();
    const url = withSchema(databaseUrl, schema);
    let discord: FakeDiscord;
    let model: FakeOpenAI;
    const bots: { bot: BotProcess; base: string }[] = [];

    afterAll(async () => {
      for (const { bot } of bots) if (bot.child.exitCode === null) bot.child.kill('SIGKILL');
      await Promise.all(bots.map(({ bot }) => bot.exited));
      await model?.close();
      await discord?.close();
      await dropSchema(databaseUrl, schema);
    });

    it('one replica holds the gateway session; when it is killed another identifies within 30 s', async () => {
      discord = await startFakeDiscord();
      model = await startFakeOpenAI({ fallback: () => ({ content: 'Answered by the new holder.' }) });
      for (let i = 0; i < 2; i++) {
        const port = await freePort();
        const bot = spawnBot({
          OPENAI_BASE_URL: model.url,
          DATABASE_URL: url,
          DISCORD_TOKEN: 'discord-leader-secret-123456',
          DISCORD_API_URL: discord.apiUrl,
          HEALTH_PORT: String(port),
          STREAM_EDIT_INTERVAL_MS: '10',
          LOG_LEVEL: 'info',
        });
        bots.push({ bot, base: `http://127.0.0.1:${port}` });
      }
      // Both replicas are ready, the one standing by included: it serves HTTP and waits for the lease.
      await Promise.all(
        bots.map(({ bot, base }) =>
          waitForHttp(`${base}/readyz`, (status) => status === 200, {
            exited: () => bot.child.exitCode !== null,
            timeoutMs: 60_000,
          }),
        ),
      );
      await waitUntil(() => bots.some(({ bot }) => bot.stderr().includes('standing by')), {
        timeoutMs: 20_000,
        what: () => `a replica standing by; logs:\n${bots.map(({ bot }) => bot.stderr()).join('\n---\n')}`,
      });
      const holder = bots.find(({ bot }) => bot.stderr().includes(HOLDING))!;
      const follower = bots.find((b) => b !== holder)!;
      expect(follower.bot.stderr()).not.toContain(HOLDING);
      await waitUntil(() => holder.bot.stderr().includes('connected to Discord'), {
        timeoutMs: 20_000,
        what: 'the holder to connect',
      });
      expect(discord.identifies).toHaveLength(1);
      expect(discord.sessions()).toBe(1);

      holder.bot.child.kill('SIGKILL');
      await holder.bot.exited;
      await waitUntil(() => discord.identifies.length === 2, {
        timeoutMs: 30_000,
        what: 'the standing-by replica to identify',
      });
      expect(follower.bot.stderr()).toContain(HOLDING);

      // The new holder answers, once.
      const question = discord.sendMessage({
        channelId: discord.channelId,
        author: discord.user('alice'),
        content: `<@${discord.bot.id}> are you there?`,
        mentions: [discord.bot],
      });
      const replies = () =>
        discord.messages(discord.channelId).filter((m) => m.message_reference?.message_id === question.id);
      await waitUntil(() => replies()[0]?.content === 'Answered by the new holder.', {
        timeoutMs: 20_000,
        what: 'the answer from the new holder',
      });
      expect(replies()).toHaveLength(1);
      expect(discord.identifies).toHaveLength(2);
    }, 120_000);
  });
});
