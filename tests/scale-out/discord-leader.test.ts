import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord-server.js';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import { freePort } from '../helpers/free-port.js';
import { createGate } from '../helpers/gate.js';
import { type BotProcess, spawnBot } from '../helpers/spawn-bot.js';
import { waitForHttp } from '../helpers/wait-for-http.js';
import { waitUntil } from '../helpers/wait-until.js';
import { asAdmin, dropSchema, freshSchema, postgresSuite, withSchema } from '../store/postgres-test-db.js';

const HOLDING = 'holding a Discord shard';

/** The shards a replica's log says it holds now (taken and not given back). */
function shardsHeld(bot: BotProcess): number[] {
  const held = new Set<number>();
  for (const line of bot.stderr().split('\n')) {
    const shard = /"shard":(\d+)/.exec(line)?.[1];
    if (shard === undefined) continue;
    if (line.includes(HOLDING)) held.add(Number(shard));
    if (line.includes('giving a Discord shard back')) held.delete(Number(shard));
  }
  return [...held].sort();
}

postgresSuite('Discord gateway leader on Postgres', (databaseUrl) => {
  describe('Discord gateway leader on Postgres', () => {
    let schema: string | undefined;
    let discord: FakeDiscord | undefined;
    let model: FakeOpenAI | undefined;
    let bots: BotProcess[] = [];
    const held = createGate();

    afterEach(async () => {
      for (const bot of bots) if (bot.child.exitCode === null) bot.child.kill('SIGKILL');
      await Promise.all(bots.map((bot) => bot.exited));
      bots = [];
      held.open();
      await model?.close();
      await discord?.close();
      if (schema) await dropSchema(databaseUrl, schema);
    });

    /** Starts `count` replicas on a fresh schema and waits until every one is ready. */
    async function startReplicas(count: number, env: Record<string, string> = {}) {
      schema = freshSchema();
      discord = await startFakeDiscord();
      // A question saying "hold" is answered only when the test says so (never, if its replica dies).
      model = await startFakeOpenAI({
        fallback: (request) =>
          JSON.stringify(request.body.messages.at(-1)).includes('hold')
            ? { content: 'Never shown.', until: held.promise }
            : { content: 'Answered by the new holder.' },
      });
      const bases: string[] = [];
      for (let i = 0; i < count; i++) {
        const port = await freePort();
        bots.push(
          spawnBot({
            OPENAI_BASE_URL: model.url,
            DATABASE_URL: withSchema(databaseUrl, schema),
            DISCORD_TOKEN: 'discord-leader-secret-123456',
            DISCORD_API_URL: discord.apiUrl,
            HEALTH_PORT: String(port),
            STREAM_EDIT_INTERVAL_MS: '10',
            LOG_LEVEL: 'info',
            ...env,
          }),
        );
        bases.push(`http://127.0.0.1:${port}`);
      }
      // Every replica is ready, those standing by included: they serve HTTP and wait for a lease.
      await Promise.all(
        bots.map((bot, i) =>
          waitForHttp(`${bases[i]}/readyz`, (status) => status === 200, {
            exited: () => bot.child.exitCode !== null,
            timeoutMs: 60_000,
          }),
        ),
      );
      return { discord, bots };
    }

    it('one replica holds the gateway session; when it is killed another identifies within 30 s', async () => {
      const { discord, bots } = await startReplicas(2);
      await waitUntil(() => bots.some((bot) => bot.stderr().includes('standing by')), {
        timeoutMs: 20_000,
        what: 'a replica standing by',
      });
      const holder = bots.find((bot) => bot.stderr().includes(HOLDING))!;
      const follower = bots.find((b) => b !== holder)!;
      await waitUntil(() => holder.stderr().includes('connected to Discord'), {
        timeoutMs: 20_000,
        what: 'the holder to connect',
      });
      expect(follower.stderr()).not.toContain(HOLDING);
      expect(discord.identifies).toHaveLength(1);
      expect(discord.sessions()).toBe(1);

      // Two questions are being answered on the holder when it dies: a mention, and an /ask elsewhere.
      const interrupted = discord.sendMessage({
        channelId: discord.channelId,
        author: discord.user('alice'),
        content: `<@${discord.bot.id}> hold this one`,
        mentions: [discord.bot],
      });
      const asked = discord.runCommand({
        name: 'ask',
        channelId: discord.addChannel('ideas'),
        user: discord.user('bob'),
        options: { question: 'hold that one too' },
      });
      await model!.waitForRequests(2, 20_000);
      const placeholder = () =>
        discord.messages(discord.channelId).find((m) => m.message_reference?.message_id === interrupted.id);
      await vi.waitFor(
        async () => {
          const placed = await asAdmin(databaseUrl, (c) =>
            c.query(`SELECT 1 FROM "${schema}".run_inbox WHERE placeholder IS NOT NULL`),
          );
          expect(placed.rowCount).toBe(2);
        },
        { timeout: 10_000, interval: 50 },
      );
      expect(placeholder()?.content).toBe('Thinking…');
      expect(discord.original(asked.token)?.content).toContain('Thinking…');

      holder.child.kill('SIGKILL');
      await holder.exited;
      await waitUntil(() => discord.identifies.length === 2, {
        timeoutMs: 30_000,
        what: 'the standing-by replica to identify',
      });
      expect(follower.stderr()).toContain(HOLDING);
      await waitUntil(() => placeholder()?.content !== 'Thinking…', {
        timeoutMs: 30_000,
        what: 'the interrupted answer’s placeholder to say so',
      });
      expect(placeholder()?.content).toBe(
        '⚠️ My answer was interrupted before I could finish; please ask again.',
      );
      expect(placeholder()?.components ?? []).toEqual([]); // no Stop button left on a dead run
      // The /ask response, through its interaction's webhook (the only way to edit one).
      await waitUntil(() => discord.original(asked.token)?.content.includes('interrupted') === true, {
        timeoutMs: 30_000,
        what: 'the interrupted /ask response to say so',
      });
      expect(discord.original(asked.token)?.content).toBe(
        '⚠️ My answer was interrupted before I could finish; please ask again.',
      );
      // The interaction's token is a credential: no replica logged it.
      for (const bot of bots) expect(bot.stderr()).not.toContain(asked.token);

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

    it('with DISCORD_SHARD_COUNT=2, two replicas hold one shard each; a survivor takes both', async () => {
      const { discord, bots } = await startReplicas(2, { DISCORD_SHARD_COUNT: '2' });
      const [a, b] = bots as [BotProcess, BotProcess];
      await waitUntil(
        () => shardsHeld(a).length === 1 && shardsHeld(b).length === 1 && discord.sessions() === 2,
        {
          timeoutMs: 30_000,
          what: () => `one shard each (held: ${JSON.stringify([shardsHeld(a), shardsHeld(b)])})`,
        },
      );
      expect([...shardsHeld(a), ...shardsHeld(b)].sort()).toEqual([0, 1]);
      expect(discord.identifies.map((i) => i.shard?.[1])).toEqual(discord.identifies.map(() => 2));

      a.child.kill('SIGKILL');
      await a.exited;
      await waitUntil(() => shardsHeld(b).length === 2 && discord.sessions() === 2, {
        timeoutMs: 30_000,
        what: () => `the survivor to hold both shards (held: ${JSON.stringify(shardsHeld(b))})`,
      });
    }, 120_000);
  });
});
