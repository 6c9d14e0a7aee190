import { afterEach, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src/platforms/discord/commands.js';
import { commandErrors, FAKE_ROLES } from '../../fakes/discord-server.js';
import { type DiscordBed, startDiscordBed } from './harness.js';

const EPHEMERAL = 64;

describe('Discord: /memory notes, remember, forget and forget-me', () => {
  let bed: DiscordBed;
  afterEach(async () => {
    await bed.close();
  });

  const memory = async (
    values: Record<string, string>,
    options: Parameters<DiscordBed['command']>[1] = {},
  ) => {
    const token = await bed.command('memory', { ...options, values });
    const original = bed.discord.original(token);
    expect(Number(original?.flags ?? 0) & EPHEMERAL).toBe(EPHEMERAL);
    return original?.content ?? '';
  };

  it('registers a /memory Discord accepts, and bare /memory still shows the memory report', async () => {
    const memoryCommand = COMMANDS.find((c) => c.name === 'memory')!;
    expect(commandErrors([memoryCommand])).toEqual({});
    bed = await startDiscordBed();
    expect(await memory({})).toMatch(/summary|turns|nothing/i);
    expect(await memory({})).not.toMatch(/Notes kept here|No notes/);
  });

  it('a note about me made in one channel shows in /memory notes and in the prompt in another', async () => {
    bed = await startDiscordBed();
    const other = bed.discord.addChannel('elsewhere');
    expect(await memory({ action: 'remember', text: 'me: prefers metric units' })).toMatch(/Noted about you/);
    expect(await memory({ action: 'remember', text: 'deploys happen on Tuesdays' })).toBe(
      'Noted for this channel, as data the bot reads, not an instruction.',
    );

    const there = await memory({ action: 'notes' }, { channelId: other });
    expect(there).toMatch(/1\. \(about you\) \[data, by discord:\d+\] prefers metric units/);
    expect(there).not.toContain('Tuesdays'); // the channel's note stays in its channel

    bed.model.script({ content: 'About 5 km.' });
    const question = await bed.say('how far is it?', { channelId: other });
    expect(bed.replyTo(question).content).toBe('About 5 km.');
    const prompt = JSON.stringify(bed.model.requests[0]!.body.messages);
    expect(prompt).toContain('prefers metric units');
    expect(prompt).not.toContain('Tuesdays');

    // Another person in that channel neither sees nor receives it.
    const bob = bed.discord.user('bob');
    expect(await memory({ action: 'notes' }, { channelId: other, user: bob })).toMatch(/No notes/);
    bed.model.script({ content: 'Three miles.' });
    await bed.say('how far is it?', { channelId: other, author: bob });
    expect(JSON.stringify(bed.model.requests[1]!.body.messages)).not.toContain('metric');
  });

  it('another person cannot delete someone’s note; its author and an admin can', async () => {
    bed = await startDiscordBed();
    const bob = bed.discord.user('bob');
    await memory({ action: 'remember', text: 'me: my badge is 4411' });
    await memory({ action: 'remember', text: 'release freeze starts June 2' });
    expect(await memory({ action: 'notes' })).toMatch(
      /1\. \[data, by discord:\d+\] release freeze starts June 2[\s\S]*2\. \(about you\) \[data, by discord:\d+\] my badge is 4411/,
    );

    // Bob sees only the channel's note, cannot remove it, and has no note 2 at all.
    const bobs = await memory({ action: 'notes' }, { user: bob });
    expect(bobs).toMatch(/1\. \[data, by discord:\d+\] release freeze starts June 2/);
    expect(bobs).not.toContain('4411');
    expect(await memory({ action: 'forget', number: '1' }, { user: bob })).toMatch(
      /Only its author or an admin/,
    );
    expect(await memory({ action: 'forget', number: '2' }, { user: bob })).toMatch(/There is no note 2/);
    expect(await memory({ action: 'notes' })).toContain('4411');

    expect(await memory({ action: 'forget' })).toMatch(/^Usage: \/memory action:forget number:/);
    expect(await memory({ action: 'forget', number: '2' })).toBe('Forgotten: my badge is 4411');
    expect(await memory({ action: 'forget', number: '1' }, { user: bob, roles: [FAKE_ROLES.manager] })).toBe(
      'Forgotten: release freeze starts June 2',
    );
    expect(await memory({ action: 'notes' })).toMatch(/No notes/);
  });

  it('forget-me removes one’s own turns; only admins may name someone else', async () => {
    bed = await startDiscordBed();
    const bob = bed.discord.user('bob');
    bed.model.script({ content: 'Noted, 1 Elm St.' }, { content: 'Hi Bob.' });
    await bed.say('my address is 1 Elm St');
    await bed.say('hello', { author: bob });
    expect(await memory({ action: 'forget-me', person: bed.alice.id }, { user: bob })).toMatch(
      /Only admins can make the bot forget someone else/,
    );
    const done = await memory({ action: 'forget-me', everywhere: 'true' });
    expect(done).toMatch(/^Forgotten in every channel: 1 question and its answer, /);
    const admin = await memory(
      { action: 'forget-me', person: bob.id },
      { user: bed.alice, roles: [FAKE_ROLES.manager] },
    );
    expect(admin).toMatch(/^Forgotten in this channel: 1 question and its answer, /);
    expect(await memory({ action: 'remember' })).toMatch(/^Usage: \/memory action:remember text:/);
  });
});
