import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_ROLES, type FakeDiscord } from '../../fakes/discord-server.js';
import type { RecordedRequest } from '../../fakes/openai-server.js';
import { type DiscordBed, startDiscordBed } from './harness.js';

/** The model answers every question by echoing it, so each answer names the question it answers. */
const lastAsked = (request: RecordedRequest) => {
  const last = request.body.messages.filter((m) => m.role === 'user').at(-1);
  const text = typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content);
  return /\[[^\]]+\] ([^\n]*)$/.exec(text)?.[1] ?? text;
};
const echo = { fallback: (request: RecordedRequest) => ({ content: `Answer to: ${lastAsked(request)}` }) };

describe('Discord: following a thread', () => {
  let bed: DiscordBed;
  let dir: string | undefined;
  afterEach(async () => {
    await bed?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  const start = async (
    env: Record<string, string> = {},
    options: { fake?: FakeDiscord; databaseUrl?: string } = {},
  ) => {
    bed = await startDiscordBed(env, { model: echo, ...options });
    return bed;
  };
  const asked = () => bed.model.requests.map(lastAsked);
  /** Alice mentions the bot in a new thread of the channel; returns the thread's id. */
  const openThread = async () => {
    const thread = bed.discord.addThread(bed.discord.channelId, 'sales');
    await bed.say('what were sales in Q3?', { channelId: thread });
    expect(asked()).toEqual(['what were sales in Q3?']);
    return thread;
  };

  it('answers the asker’s follow-up in a thread without a mention, and in the thread of its steps', async () => {
    await start();
    const thread = await openThread();
    await bed.say('and for last quarter?', { channelId: thread, mention: false });
    expect(asked()).toEqual(['what were sales in Q3?', 'and for last quarter?']);
    expect(bed.discord.messages(thread).map((m) => m.content)).toContain('Answer to: and for last quarter?');

    // A question at the top of the channel: its steps go to a thread started from the reply.
    bed.model.script(
      {
        content: 'I will add it up.',
        toolCalls: [{ name: 'calculator', arguments: { expression: '1 + 2' } }],
      },
      { content: 'Answer to: and the year?' },
    );
    const question = await bed.say('and the year?');
    const reply = bed.replyTo(question);
    await bed.say('per month please', { channelId: reply.id, mention: false });
    expect(asked().at(-1)).toBe('per month please');
    // The follow-up in the steps thread reads the answer it follows.
    expect(JSON.stringify(bed.model.requests.at(-1)!.body.messages)).toContain('Answer to: and the year?');
  });

  it('follows a thread where /ask was used, as after a mention', async () => {
    await start();
    const thread = bed.discord.addThread(bed.discord.channelId, 'sales');
    await bed.command('ask', { channelId: thread, question: 'what were sales in Q3?' });
    expect(asked()).toEqual(['what were sales in Q3?']);
    await bed.say('and for last quarter?', { channelId: thread, mention: false });
    expect(asked()).toEqual(['what were sales in Q3?', 'and for last quarter?']);
  });

  it('stands back once another person speaks; their mention is still answered', async () => {
    await start();
    const thread = await openThread();
    const bob = bed.discord.user('bob');
    await bed.say('I think it was up', { channelId: thread, mention: false, author: bob });
    await bed.say('yes, up 5%', { channelId: thread, mention: false });
    expect(asked()).toHaveLength(1);
    await bed.say('can you check?', { channelId: thread, author: bob });
    expect(asked()).toEqual(['what were sales in Q3?', 'can you check?']);
    await bed.say('and Q2?', { channelId: thread, mention: false });
    expect(asked()).toHaveLength(2);
  });

  it('leaves a message addressed to someone else, and threads it never took part in', async () => {
    await start();
    const thread = await openThread();
    const bob = bed.discord.user('bob');
    bed.discord.sendMessage({
      channelId: thread,
      author: bed.alice,
      content: `<@${bob.id}> can you confirm?`,
      mentions: [bob],
    });
    await bed.settle();
    const other = bed.discord.addThread(bed.discord.channelId, 'lunch');
    await bed.say('and for last quarter?', { channelId: other, mention: false });
    await bed.say('a plain message in the channel', { mention: false });
    expect(asked()).toHaveLength(1);
  });

  it('reacts 👍 to a thanks instead of answering', async () => {
    await start();
    const thread = await openThread();
    const thanks = await bed.say('thanks!', { channelId: thread, mention: false });
    expect(asked()).toHaveLength(1);
    expect(bed.discord.reactions).toEqual([{ channelId: thread, messageId: thanks.id, emoji: '👍' }]);
  });

  it('`/settings follow off` stops following; `/settings show` says so', async () => {
    await start();
    const thread = await openThread();
    const admin = { roles: [FAKE_ROLES.manager] };
    await bed.command('settings', { subcommand: 'follow', values: { state: 'off' }, ...admin });
    const shown = await bed.command('settings', { subcommand: 'show', ...admin });
    expect(bed.discord.original(shown)?.content).toContain('Follow threads: off');
    await bed.say('and for last quarter?', { channelId: thread, mention: false });
    expect(asked()).toHaveLength(1);
  });

  it('keeps following across a restart of the bot on the same database', async () => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-follow-'));
    const databaseUrl = `sqlite:${join(dir, 'shared.db')}`;
    await start({}, { databaseUrl });
    const thread = await openThread();
    const fake = bed.discord;
    await bed.shutdown();
    const first = bed;
    await start({}, { databaseUrl, fake });
    await bed.say('and for last quarter?', { channelId: thread, mention: false, author: first.alice });
    expect(asked()).toEqual(['and for last quarter?']);
    await first.close();
  });
});
