import { afterEach, describe, expect, it } from 'vitest';
import { type DiscordBed, startDiscordBed } from './harness.js';
import { shownText } from './shown-text.js';

const EPHEMERAL = 64;

describe('Discord: slash commands', () => {
  let bed: DiscordBed;
  afterEach(async () => {
    await bed.close();
  });

  it('defers /ask before the model is asked, then answers on the reply with the steps in a thread', async () => {
    bed = await startDiscordBed();
    const { discord } = bed;
    let deferredFirst: boolean | undefined;
    bed.model.script(
      () => {
        deferredFirst = discord.calls.some((c) => c.path.endsWith('/callback') && c.body.type === 5);
        return {
          content: 'Let me compute.',
          toolCalls: [{ name: 'calculator', arguments: { expression: '123 * 456 + 789' } }],
        };
      },
      { content: 'It is 56877.' },
    );
    const token = await bed.command('ask', { question: 'what is 123 * 456 + 789?', nick: 'Ali' });
    const original = discord.original(token)!;

    expect(deferredFirst).toBe(true);
    const callback = discord.calls.find((c) => c.path.includes(token) && c.path.endsWith('/callback'));
    expect(callback?.body.type).toBe(5); // deferred: the user sees "thinking…"
    expect(callback?.body.data?.flags ?? 0).toBe(0); // public
    // Nobody else sees the command's question, so the answer repeats it in small print.
    expect(original.content).toBe('-# Ali asked: what is 123 * 456 + 789?\nIt is 56877.');
    const edits = discord.calls.filter(
      (c) => c.method === 'PATCH' && c.path.endsWith(`${token}/messages/@original`),
    );
    expect(edits.at(-1)?.body.content).toBe(original.content);
    expect(edits.every((c) => c.body.allowed_mentions?.parse?.length === 0)).toBe(true);

    const threadCall = discord.calls.find(
      (c) => c.path === `/channels/${discord.channelId}/messages/${original.id}/threads`,
    );
    expect(threadCall?.body.name).toBe('what is 123 * 456 + 789?');
    const thread = discord
      .messages(original.id)
      .map((m) => m.content)
      .join('\n');
    expect(thread).toMatch(
      /Thought:\*\* Let me compute\.[\s\S]*Action:[\s\S]*calculator[\s\S]*Observation:[\s\S]*56,?877/,
    );
    expect(JSON.stringify(bed.model.requests[0]!.body.messages.at(-1))).toContain('Ali');
  });

  it('continues a long /ask answer in follow-up messages', async () => {
    bed = await startDiscordBed();
    const answer = Array.from({ length: 40 }, (_, i) => `Line ${i}: ${'word '.repeat(15).trim()}.`).join(
      '\n',
    );
    bed.model.script({ content: `${answer}\n\n${answer}` });
    const token = await bed.command('ask', { question: 'a long one' });

    const followUps = bed.discord.calls.filter(
      (c) => c.method === 'POST' && c.path.endsWith(`/webhooks/${bed.discord.applicationId}/${token}`),
    );
    const parts = [bed.discord.original(token)!.content, ...followUps.map((c) => c.body.content)];
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(2000);
    const shown = `-# alice asked: a long one\n${answer}\n\n${answer}`;
    expect(parts.join('\n').replace(/\s+/g, ' ')).toBe(shown.replace(/\s+/g, ' '));
  });

  it('/ask in a DM answers with no thread; the steps go into one follow-up message', async () => {
    bed = await startDiscordBed();
    const { discord } = bed;
    const dm = discord.addDm(bed.alice);
    bed.model.script(
      { content: 'Computing.', toolCalls: [{ name: 'calculator', arguments: { expression: '2 + 2' } }] },
      { content: 'It is 4.' },
    );
    const token = await bed.command('ask', { question: 'what is 2 + 2?', channelId: dm });

    expect(discord.original(token)!.content).toBe('-# alice asked: what is 2 + 2?\nIt is 4.');
    expect(discord.calls.some((c) => c.path.endsWith('/threads'))).toBe(false);
    const steps = discord.messages(dm).filter((m) => m.id !== discord.original(token)!.id);
    expect(steps).toHaveLength(1);
    expect(shownText(steps[0]!)).toMatch(/Thought:[\s\S]*Action:[\s\S]*Observation:/);
  });

  it('/reset forgets the channel and tells only the caller', async () => {
    bed = await startDiscordBed();
    const key = `discord:${bed.discord.guildId}:${bed.discord.channelId}`;
    bed.model.script({ content: 'Noted: 42.' });
    await bed.say('remember 42');
    expect((await bed.test.core.assistant.memory(key)).turns).toBe(1);

    const token = await bed.command('reset');
    const callback = bed.discord.calls.find((c) => c.path.includes(token) && c.path.endsWith('/callback'));
    expect(callback?.body.data.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(bed.discord.original(token)!.content).toMatch(/forgotten/);
    expect((await bed.test.core.assistant.memory(key)).turns).toBe(0);
  });

  it('/memory shows the channel’s memory only to the caller', async () => {
    bed = await startDiscordBed();
    bed.model.script({ content: 'Noted.' });
    await bed.say('remember the number 7');
    const token = await bed.command('memory');

    const callback = bed.discord.calls.find((c) => c.path.includes(token) && c.path.endsWith('/callback'));
    expect(callback?.body.data.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(bed.discord.original(token)!.content).toMatch(/Turns kept verbatim: 1/);
  });
});
