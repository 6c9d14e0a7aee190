import { afterEach, describe, expect, it } from 'vitest';
import { WORDING } from '../../../src/platforms/shared/wording.js';
import { FAKE_ROLES } from '../../fakes/discord-server.js';
import { type DiscordBed, startDiscordBed } from './harness.js';

describe('Discord: who may ask', () => {
  let bed: DiscordBed | undefined;
  afterEach(async () => {
    await bed?.close();
    bed = undefined;
  });

  it('admits members with a role on ALLOW_ROLES, and refuses the others with one reply', async () => {
    bed = await startDiscordBed({ ALLOW_ROLES: FAKE_ROLES.helper });
    bed.model.script({ content: 'Helpers are welcome.' }, { content: 'Never.' });
    const helper = await bed.say('may I?', { roles: [FAKE_ROLES.helper] });
    expect(bed.replyTo(helper).content).toBe('Helpers are welcome.');
    const stranger = await bed.say('and I?');
    expect(bed.replyTo(stranger).content).toBe(WORDING.refused);
    expect(bed.model.requests).toHaveLength(1);
  });

  it('refuses /ask privately, before anything is shown in the channel', async () => {
    bed = await startDiscordBed({ ALLOW_CHANNELS: '333333333333333333' });
    const token = await bed.command('ask', { question: 'anyone there?' });
    const original = bed.discord.original(token);
    expect(original?.content).toBe(WORDING.refused);
    expect(Number(original?.flags ?? 0) & 64).toBe(64); // ephemeral
    expect(bed.model.requests).toHaveLength(0);
  });

  it('never limits members with Manage Server, and shows them the top lists in /usage', async () => {
    bed = await startDiscordBed({ RATE_LIMIT_USER: '1/hour' });
    bed.model.script({ content: 'one' }, { content: 'two' }, { content: 'three' });
    for (const text of ['first', 'second', 'third']) {
      const question = await bed.say(text, { roles: [FAKE_ROLES.manager] });
      expect(bed.replyTo(question).content).not.toMatch(/limit/);
    }
    expect(bed.model.requests).toHaveLength(3);
    const token = await bed.command('usage', { roles: [FAKE_ROLES.manager] });
    const report = bed.discord.original(token)?.content ?? '';
    expect(report).toMatch(/You this month: 3 questions/);
    expect(report).toMatch(/Top users this month:\n {2}1\. discord:\d+: 3 questions/);
  });

  it('limits everyone else, saying when the next question will be taken', async () => {
    bed = await startDiscordBed({ RATE_LIMIT_USER: '1/hour' });
    bed.model.script({ content: 'once' }, { content: 'never' });
    await bed.say('first');
    const second = await bed.say('second');
    expect(bed.replyTo(second).content).toMatch(
      /^⚠️ You have reached the limit of 1 question per hour; your next question will be taken at /,
    );
    expect(bed.model.requests).toHaveLength(1);
    const token = await bed.command('usage');
    expect(bed.discord.original(token)?.content ?? '').not.toMatch(/Top users/);
  });
});
