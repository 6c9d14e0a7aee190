import { afterEach, describe, expect, it } from 'vitest';
import { INSTALL_RULES } from '../../fakes/discord-installs.js';
import { createGate } from '../../helpers/gate.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { type DiscordBed, startDiscordBed } from './harness.js';
import { shownText } from './shown-text.js';

const EPHEMERAL = 64;
const CALCULATOR_RUN = [
  { content: 'Computing.', toolCalls: [{ name: 'calculator', arguments: { expression: '2 + 2' } }] },
  { content: 'It is 4.' },
];

describe('Discord: user install', () => {
  let bed: DiscordBed;
  afterEach(async () => {
    await bed.close();
  });

  /** Every REST call the bot made with its own token about `channelId` (none where it is not a member). */
  const botTokenCalls = (channelId: string) =>
    bed.discord.calls.filter((c) => c.path.startsWith(`/channels/${channelId}`));
  /** The follow-ups of the interaction `token`, as posted. */
  const followUps = (token: string) =>
    bed.discord.calls.filter(
      (c) => c.method === 'POST' && c.path === `/webhooks/${bed.discord.applicationId}/${token}`,
    );

  it('registers /ask, /usage and /tools for user installs, anywhere; the rest for servers and the bot’s DMs', async () => {
    bed = await startDiscordBed();
    const { registered } = bed.discord;
    for (const name of ['ask', 'usage', 'tools'])
      expect(registered.get(name), name).toMatchObject({ integration_types: [0, 1], contexts: [0, 1, 2] });
    for (const name of ['reset', 'memory', 'settings', 'schedule'])
      expect(registered.get(name), name).toMatchObject({ integration_types: [0], contexts: [0, 1] });
  });

  it('registers servers-only commands when the app does not allow user installs', async () => {
    bed = await startDiscordBed({}, { discord: { installTypes: [0] } });
    const puts = bed.discord.calls.filter((c) => c.method === 'PUT');
    expect(puts.map((c) => c.status)).toEqual([400, 200]);
    expect(JSON.stringify(puts[0]!.body)).toContain('"integration_types":[0,1]');
    expect(bed.discord.registered.get('ask')).toMatchObject({ integration_types: [0], contexts: [0, 1] });
  });

  it('leaves integration_types and contexts out of one guild’s commands (DISCORD_GUILD_ID)', async () => {
    bed = await startDiscordBed({ DISCORD_GUILD_ID: '123456789012345678' });
    const put = bed.discord.calls.find((c) => c.method === 'PUT')!;
    for (const command of put.body) {
      expect(command.integration_types).toBeUndefined();
      expect(command.contexts).toBeUndefined();
    }
  });

  it.each(['guild', 'group-dm'] as const)(
    '/ask where the bot is not a member (%s): answered through the interaction, the steps as a follow-up, nothing posted with the bot token',
    async (kind) => {
      bed = await startDiscordBed();
      const place = bed.discord.addUserInstallPlace(kind, [bed.alice, bed.discord.user('bob')]);
      bed.model.script(...CALCULATOR_RUN);
      const token = await bed.command('ask', { channelId: place, question: 'what is 2 + 2?' });

      expect(bed.discord.original(token)!.content).toBe('-# alice asked: what is 2 + 2?\nIt is 4.');
      expect(followUps(token)).toHaveLength(1);
      const original = bed.discord.original(token)!;
      const [steps, ...more] = bed.discord.messages(place).filter((m) => m.id !== original.id);
      expect(more).toEqual([]);
      expect(shownText(steps!)).toMatch(/Thought:\*\* Computing\.[\s\S]*calculator[\s\S]*Observation/);
      expect(botTokenCalls(place)).toEqual([]);
      expect(bed.discord.calls.filter((c) => c.status >= 400)).toEqual([]);
    },
  );

  it('a long answer there stays within the five follow-ups Discord allows, cut with a note', async () => {
    bed = await startDiscordBed({ ANSWER_MAX_MESSAGES: '10' });
    const place = bed.discord.addUserInstallPlace('guild');
    const line = (i: number) => `Line ${i}: ${'word '.repeat(15).trim()}.`;
    bed.model.script({ content: Array.from({ length: 200 }, (_, i) => line(i)).join('\n') });
    const token = await bed.command('ask', { channelId: place, question: 'a very long one' });

    const posted = followUps(token);
    // Three messages at most (the response and two follow-ups), leaving room for the steps and approvals.
    expect(posted).toHaveLength(2);
    expect(posted.length).toBeLessThan(INSTALL_RULES.userInstallFollowUps);
    expect(posted.every((c) => c.status === 200)).toBe(true);
    expect(posted.at(-1)!.body.content).toMatch(/more|cut/i);
    expect(botTokenCalls(place)).toEqual([]);
  });

  it('/usage and /tools there answer privately through the interaction', async () => {
    bed = await startDiscordBed();
    const place = bed.discord.addUserInstallPlace('group-dm', [bed.alice]);
    for (const name of ['usage', 'tools']) {
      const token = await bed.command(name, { channelId: place });
      const callback = bed.discord.callbacks.find((c) => c.token === token)!;
      expect(callback.data.flags & EPHEMERAL).toBe(EPHEMERAL);
      expect(bed.discord.original(token)!.content.length).toBeGreaterThan(0);
    }
    expect(botTokenCalls(place)).toEqual([]);
  });

  it.each([
    [14.2, 'still edited through the token: there is no channel to move to'],
    [16, 'past the token’s 15 minutes, lost rather than posted with the bot token'],
  ])('an answer coming %s minutes after /ask there is %s', async (minutes) => {
    let offset = 0;
    const held = createGate();
    bed = await startDiscordBed({}, { now: () => Date.now() + offset });
    const place = bed.discord.addUserInstallPlace('guild');
    bed.model.script({ content: 'Worth the wait.', until: held.promise });
    const { token } = bed.discord.runCommand({
      name: 'ask',
      channelId: place,
      user: bed.alice,
      options: { question: 'a slow one?' },
    });
    await waitUntil(() => bed.model.requests.length === 1, { what: 'the model call' });
    offset = minutes * 60_000;
    held.open();
    await bed.settle();
    await bed.adapter.idle();

    const shown = bed.discord.original(token)!.content;
    expect(shown.endsWith('Worth the wait.')).toBe(minutes < 15);
    expect(botTokenCalls(place)).toEqual([]);
    const refused = bed.discord.calls.filter((c) => c.status >= 400);
    expect(refused.map((c) => c.status)).toEqual(minutes < 15 ? [] : [401]);
  });
});
