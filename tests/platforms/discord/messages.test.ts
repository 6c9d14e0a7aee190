import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DiscordCall, FakeMessage } from '../../fakes/discord-server.js';
import { type DiscordBed, startDiscordBed } from './harness.js';
import { shownText } from './shown-text.js';

const CALCULATION = {
  content: 'I will use the calculator.',
  toolCalls: [{ name: 'calculator', arguments: { expression: '123 * 456 + 789' } }],
};
// Longer than the core's hold-back (160 characters), so it streams in pieces.
const LONG_ANSWER =
  'The result is **56877**. First 123 × 456 = 56088, then adding 789 gives 56877. ' +
  'Multiplication comes before addition, so no parentheses are needed here, and the calculator agrees ' +
  'with the working shown above, step by step.';

/** Contents of the bot's PATCH edits of one message, in order. */
function editsOf(calls: DiscordCall[], messageId: string): string[] {
  return calls
    .filter((c) => c.method === 'PATCH' && c.path.endsWith(`/messages/${messageId}`) && c.status === 200)
    .map((c) => c.body.content);
}

/** The bot's messages in a channel. */
function botMessages(bed: DiscordBed, channelId: string): FakeMessage[] {
  return bed.discord.messages(channelId).filter((m) => m.author.id === bed.discord.bot.id);
}

describe('Discord: questions by mention and DM', () => {
  let bed: DiscordBed;
  beforeEach(async () => {
    bed = await startDiscordBed();
  });
  afterEach(async () => {
    await bed.close();
  });

  it('answers a mention: typing, a reply, a thread named from the question with the steps, the answer edited in', async () => {
    const { discord } = bed;
    bed.model.script(CALCULATION, { content: LONG_ANSWER });
    const question = await bed.say('what is 123 * 456 + 789?', { nick: 'Ali' });
    const reply = bed.replyTo(question);
    const channel = discord.channelId;

    expect(discord.calls.some((c) => c.method === 'POST' && c.path === `/channels/${channel}/typing`)).toBe(
      true,
    );
    const posted = discord.calls.find(
      (c) => c.method === 'POST' && c.body.message_reference?.message_id === question.id,
    );
    expect(posted?.body.content).toBe('Thinking…');
    // The thread hangs off the reply, so the channel keeps only the question and the answer.
    const threadCall = discord.calls.find(
      (c) => c.path === `/channels/${channel}/messages/${reply.id}/threads`,
    );
    expect(threadCall?.body.name).toBe('what is 123 * 456 + 789?');
    expect(botMessages(bed, channel)).toEqual([reply]);

    const steps = discord.messages(reply.id).map((m) => m.content);
    const thread = steps.join('\n');
    expect(thread).toMatch(
      /Thought:\*\* I will use the calculator\.[\s\S]*Action:\*\* `calculator[\s\S]*Observation/,
    );
    expect(thread).toContain('123 * 456 + 789');
    expect(thread).toMatch(/56,?877/);
    expect(thread).not.toContain('Multiplication comes before addition');

    // Streamed: edited more than once, each edit a growing prefix of the answer, ending with all of it.
    const edits = editsOf(discord.calls, reply.id).filter((t) => t !== 'Thinking…');
    expect(edits.length).toBeGreaterThan(1);
    for (const edit of edits) expect(LONG_ANSWER.startsWith(edit)).toBe(true);
    expect(edits.at(-1)).toBe(LONG_ANSWER);
    expect(reply.content).toBe(LONG_ANSWER);

    // The model saw who asked, without the bot's mention.
    const asked = JSON.stringify(bed.model.requests[0]!.body.messages.at(-1)!.content);
    expect(asked).toContain('Ali');
    expect(asked).toContain('what is 123 * 456 + 789?');
    expect(asked).not.toContain(discord.bot.id);
  });

  it('continues an answer of 5,000 characters in further messages, split cleanly', async () => {
    const paragraph = (n: number) => `Paragraph ${n}: ${'lorem ipsum dolor sit amet '.repeat(12).trim()}.`;
    const code = [
      '```ts',
      ...Array.from({ length: 60 }, (_, i) => `const value${i} = compute(${i}); // step`),
      '```',
    ];
    const answer = [
      paragraph(1),
      paragraph(2),
      code.join('\n'),
      ...Array.from({ length: 6 }, (_, i) => paragraph(i + 3)),
    ]
      .join('\n\n')
      .slice(0, 5000);
    expect(answer.length).toBeGreaterThan(4500);
    bed.model.script({ content: answer });
    const question = await bed.say('write a long answer');
    const reply = bed.replyTo(question);
    const sent = bed.discord.messages(bed.discord.channelId).filter((m) => m.author.bot && m.id >= reply.id);
    const parts = sent.map((m) => m.content);

    expect(parts.length).toBeGreaterThanOrEqual(3);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(2000);
      expect(part.split('\n').filter((line: string) => line.startsWith('```')).length % 2).toBe(0);
    }
    const words = (text: string) => text.split(/\s+/).filter((w) => w && !w.startsWith('```'));
    expect(words(parts.join('\n'))).toEqual(words(answer));
    // While streaming, the reply never went over the limit either.
    for (const edit of editsOf(bed.discord.calls, reply.id)) expect(edit.length).toBeLessThanOrEqual(2000);
  });

  it('answers a DM without a mention; the steps go into one message edited as they arrive', async () => {
    const { discord } = bed;
    const dm = discord.addDm(bed.alice);
    bed.model.script(CALCULATION, { content: 'It is 56877.' });
    const question = await bed.say('what is 123 * 456 + 789?', { channelId: dm, mention: false });
    const reply = bed.replyTo(question);

    expect(reply.content).toBe('It is 56877.');
    expect(discord.calls.some((c) => c.path.endsWith('/threads'))).toBe(false);
    const mine = botMessages(bed, dm);
    expect(mine).toHaveLength(2);
    const steps = mine.find((m) => m.id !== reply.id)!;
    expect(shownText(steps)).toMatch(
      /Thought:[\s\S]*Action:[\s\S]*calculator[\s\S]*Observation:[\s\S]*56,?877/,
    );
    expect((await bed.test.core.assistant.memory(`discord:dm:${dm}`)).turns).toBe(1);
  });

  it('treats a mention inside a thread as its own conversation, with its steps in one message', async () => {
    const { discord } = bed;
    const thread = discord.addThread(discord.channelId, 'planning');
    bed.model.script({ content: 'Noted: Atlas.' }, CALCULATION, { content: 'It is 56877.' });
    await bed.say('my project is called Atlas');
    const question = await bed.say('what is 123 * 456 + 789?', { channelId: thread });

    expect(bed.replyTo(question).content).toBe('It is 56877.');
    expect(JSON.stringify(bed.model.requests[1]!.body.messages)).not.toContain('Atlas');
    expect(discord.calls.filter((c) => c.path.endsWith('/threads'))).toHaveLength(0);
    expect(botMessages(bed, thread)).toHaveLength(2);
    expect((await bed.test.core.assistant.memory(`discord:${discord.guildId}:${thread}`)).turns).toBe(1);
  });

  it('ignores other bots, itself, and guild messages that do not mention it', async () => {
    const { discord } = bed;
    const otherBot = discord.user('otherbot', { bot: true });
    bed.model.script({ content: 'Only this one.' });
    await bed.say('chatting among ourselves', { mention: false });
    await bed.say('hey bot, answer me', { author: otherBot });
    const itself = await bed.say('talking to myself', { author: discord.bot });
    const question = await bed.say('a real question');

    expect(bed.model.requests).toHaveLength(1);
    expect(bed.replyTo(question).content).toBe('Only this one.');
    expect(botMessages(bed, discord.channelId).filter((m) => m.id !== itself.id)).toHaveLength(1);
  });

  it('waits out a 429 on an edit and still shows the final answer', async () => {
    const { discord } = bed;
    discord.rateLimit(
      (c) => c.method === 'PATCH' && c.path.startsWith(`/channels/${discord.channelId}/messages/`),
      0.2,
      2,
    );
    bed.model.script({ content: 'The final answer survives.' });
    const question = await bed.say('anything');
    const reply = bed.replyTo(question);

    const patches = discord.calls.filter(
      (c) => c.method === 'PATCH' && c.path.endsWith(`/messages/${reply.id}`),
    );
    expect(patches.map((c) => c.status).slice(0, 3)).toEqual([429, 429, 200]);
    expect(reply.content).toBe('The final answer survives.');
  });

  it('ends a model failure with a short message where the answer would be', async () => {
    bed.model.script({ status: 500, body: { error: { message: 'upstream exploded: secret stack' } } });
    const question = await bed.say('anything');
    const reply = bed.replyTo(question).content;

    expect(reply).toMatch(/^⚠️ /);
    expect(reply).toMatch(/model/i);
    expect(reply).not.toContain('secret stack');
    expect(reply.length).toBeLessThan(300);
  });

  it('never lets model output ping anyone: only the reply notifies the asker', async () => {
    const { discord } = bed;
    const pings = '@everyone @here <@123456789012345678> <@&223456789012345678> look at this';
    bed.model.script(
      {
        content: `Pinging ${pings}`,
        toolCalls: [{ name: 'calculator', arguments: { expression: '1 + 1' } }],
      },
      { content: pings },
    );
    const question = await bed.say('ping everyone please');
    expect(bed.replyTo(question).content).toBe(pings);

    const sends = discord.calls.filter((c) => /\/messages(\/\d+)?$/.test(c.path) && c.method !== 'GET');
    expect(sends.length).toBeGreaterThan(2);
    for (const call of sends) {
      expect(call.body.allowed_mentions).toBeDefined();
      expect(call.body.allowed_mentions.parse).toEqual([]);
      expect(call.body.allowed_mentions.users ?? []).toEqual([]);
      expect(call.body.allowed_mentions.roles ?? []).toEqual([]);
    }
    const notifying = sends.filter((c) => c.body.allowed_mentions.replied_user && c.method === 'POST');
    expect(notifying.map((c) => c.body.message_reference?.message_id)).toEqual([question.id]);
  });

  it('shows the steps in one message when it may not start a thread', async () => {
    const { discord } = bed;
    discord.respond((c) => c.path.endsWith('/threads'), {
      status: 403,
      body: { message: 'Missing Permissions', code: 50013 },
    });
    bed.model.script(CALCULATION, { content: 'It is 56877.' });
    const question = await bed.say('what is 123 * 456 + 789?');
    const reply = bed.replyTo(question);

    expect(reply.content).toBe('It is 56877.');
    const mine = botMessages(bed, discord.channelId);
    expect(mine).toHaveLength(2);
    expect(shownText(mine.find((m) => m.id !== reply.id)!)).toMatch(
      /Thought:[\s\S]*Action:[\s\S]*Observation:/,
    );
  });

  it('keeps serving after a channel where it cannot post', async () => {
    const { discord } = bed;
    const forbidden = { status: 403, body: { message: 'Missing Permissions', code: 50013 } };
    discord.respond(
      (c) => c.method === 'POST' && c.path === `/channels/${discord.channelId}/messages`,
      forbidden,
    );
    bed.model.script({ content: 'Still here.' });
    const first = await bed.say('first');
    const second = await bed.say('second');

    expect(() => bed.replyTo(first)).toThrow();
    expect(bed.replyTo(second).content).toBe('Still here.');
  });

  it('answers a bare mention with a hint instead of asking the model', async () => {
    const question = await bed.say('');
    expect(bed.replyTo(question).content).toMatch(/Ask me something/);
    expect(bed.model.requests).toHaveLength(0);
  });

  it('posts the answer anew when its reply can no longer be edited', async () => {
    const { discord } = bed;
    const gone = { status: 404, body: { message: 'Unknown Message', code: 10008 } };
    discord.respond((c) => c.method === 'PATCH', gone, 100);
    bed.model.script({ content: 'The answer still arrives.' });
    const question = await bed.say('anything');

    const mine = botMessages(bed, discord.channelId).filter((m) => m.id !== bed.replyTo(question).id);
    expect(mine.map((m) => m.content)).toEqual(['The answer still arrives.']);
  });

  it('under a per-channel limit like Discord’s, still delivers every step and the whole answer', async () => {
    await bed.close();
    bed = await startDiscordBed(
      { STREAM_EDIT_INTERVAL_MS: '0' },
      { discord: { channelLimit: { requests: 2, perMs: 150 } } },
    );
    const { discord } = bed;
    const calculations = Array.from({ length: 3 }, (_, i) => ({
      content: `Step ${i}: computing.`,
      toolCalls: [{ name: 'calculator', arguments: { expression: `${i} + 1` } }],
    }));
    bed.model.script(...calculations, { content: LONG_ANSWER });
    const question = await bed.say('count to three');
    const reply = bed.replyTo(question);

    expect(reply.content).toBe(LONG_ANSWER);
    const thread = discord
      .messages(reply.id)
      .map((m) => m.content)
      .join('\n');
    for (let i = 0; i < 3; i++) expect(thread).toContain(`Step ${i}: computing.`);
    expect(thread.indexOf('Step 0')).toBeLessThan(thread.indexOf('Step 2'));
  });
});
