import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORDING } from '../../../src/platforms/shared/wording.js';
import { FAKE_ROLES } from '../../fakes/discord-server.js';
import type { RecordedRequest } from '../../fakes/openai-server.js';
import { type DiscordBed, startDiscordBed } from './harness.js';
import { shownText } from './shown-text.js';

const ADMIN = { roles: [FAKE_ROLES.manager] };
const CALCULATION = {
  content: 'I will use the calculator.',
  toolCalls: [{ name: 'calculator', arguments: { expression: '6 * 7' } }],
};

const systemMessages = (request: RecordedRequest) =>
  request.body.messages.filter((m) => m.role === 'system').map((m) => String(m.content));
const toolNames = (request: RecordedRequest) => (request.body.tools ?? []).map((t) => t.function.name);

describe('Discord: /settings', () => {
  let bed: DiscordBed;
  beforeEach(async () => {
    bed = await startDiscordBed({ LLM_MODELS: 'gpt-4o-mini, big-model' });
  });
  afterEach(async () => {
    await bed.close();
  });

  /** Runs `/settings <subcommand>` and returns the private reply. */
  const settings = async (
    subcommand: string,
    values: Record<string, string> = {},
    options: { channelId?: string; roles?: string[] } = ADMIN,
  ) => {
    const token = await bed.command('settings', { subcommand, values, ...options });
    const reply = bed.discord.original(token);
    expect(Number(reply?.flags ?? 0) & 64).toBe(64); // only the caller sees it
    return reply?.content ?? '';
  };
  const inForce = () =>
    bed.test.core.assistant.settingsIn(`discord:${bed.discord.guildId}:${bed.discord.channelId}`);

  it('is registered with one subcommand per setting', () => {
    const put = bed.discord.calls.find((c) => c.method === 'PUT' && c.path.endsWith('/commands'));
    const command = ((put?.body ?? []) as { name: string; options: { name: string }[] }[]).find(
      (c) => c.name === 'settings',
    );
    expect(command?.options.map((o) => o.name)).toEqual([
      'show',
      'reset',
      'prompt',
      'model',
      'protocol',
      'tools',
      'steps',
      'follow',
      'approvals',
    ]);
  });

  it('/settings approvals: admins only; says when no tool asks first', async () => {
    expect(await settings('approvals', {}, {})).toBe(WORDING.settingsAdminsOnly);
    expect(await settings('approvals')).toBe('No tool here asks for approval before it runs.');
    expect(await settings('approvals', { revoke: 'all' })).toBe(
      'Revoked 0 grants: every such tool asks again here.',
    );
  });

  it('refuses someone who is not an admin, and saves nothing', async () => {
    expect(await settings('show', {}, {})).toBe(WORDING.settingsAdminsOnly);
    expect(await settings('prompt', { text: 'Always answer in French.' }, {})).toBe(
      WORDING.settingsAdminsOnly,
    );
    expect((await inForce()).prompt).toBeUndefined();
  });

  it('lets ADMIN_USERS in without Manage Server', async () => {
    await bed.close();
    const owner = { id: '123456789012345678', username: 'owner', discriminator: '0', global_name: 'owner' };
    bed = await startDiscordBed({ ADMIN_USERS: owner.id });
    const token = await bed.command('settings', {
      subcommand: 'steps',
      values: { where: 'off' },
      user: owner,
    });
    expect(bed.discord.original(token)?.content).toContain('Steps: off');
  });

  it('shows the defaults, then a channel prompt the model gets right after its system prompt', async () => {
    const shown = await settings('show');
    expect(shown).toContain('Prompt (default): none');
    expect(shown).toContain('Model (default): gpt-4o-mini');
    expect(shown).toContain('Steps (default): thread');

    const saved = await settings('prompt', { text: 'Always answer in French.' });
    expect(saved).toContain('Saved prompt');
    expect(saved).toContain('Prompt: Always answer in French.');

    bed.model.script({ content: 'Bonjour.' }, { content: 'Hello.' });
    await bed.say('hello');
    const other = bed.discord.addChannel('other');
    await bed.say('hello', { channelId: other });

    const [here, there] = bed.model.requests;
    const system = systemMessages(here!);
    expect(system[0]).toBe(systemMessages(there!)[0]); // the base prompt stays one cacheable prefix
    expect(here!.body.messages[1]).toEqual({
      role: 'system',
      content: expect.stringContaining('Always answer in French.'),
    });
    // Another channel is unaffected.
    expect(JSON.stringify(there!.body.messages)).not.toContain('French');
  });

  it('takes a prompt of 2,000 characters; Discord itself refuses a longer one (max_length)', async () => {
    const prompt = bed.discord.registered
      .get('settings')
      ?.options.find((o: { name: string }) => o.name === 'prompt')?.options[0];
    expect(prompt?.max_length).toBe(2000);
    expect(() =>
      bed.discord.runCommand({
        name: 'settings',
        subcommand: 'prompt',
        options: { text: 'x'.repeat(2001) },
        channelId: bed.discord.channelId,
        user: bed.alice,
      }),
    ).toThrow(/max_length/);
    await settings('prompt', { text: 'x'.repeat(2000) });
    expect((await inForce()).prompt).toBe('x'.repeat(2000));
  });

  it('switches the model to one of LLM_MODELS; an unknown one is refused with the valid ones', async () => {
    const refused = await settings('model', { name: 'gpt-5-huge' });
    expect(refused).toContain('Unknown model');
    expect(refused).toContain('gpt-4o-mini, big-model');
    expect((await inForce()).model).toBe('gpt-4o-mini');

    expect(await settings('model', { name: 'big-model' })).toContain('Model: big-model');
    bed.model.script({ content: 'Hi.' }, { content: 'Hi there.' });
    await bed.say('hello');
    await bed.say('hello', { channelId: bed.discord.addChannel('other') });
    expect(bed.model.requests.map((r) => r.body.model)).toEqual(['big-model', 'gpt-4o-mini']);
  });

  it('limits the tools offered, in both protocols; unknown names are refused with the valid ones', async () => {
    const refused = await settings('tools', { names: 'calculator teleport' });
    expect(refused).toContain('Unknown: teleport');
    expect(refused).toMatch(/Valid: calculator, .*current_time.*, or all/);
    expect((await inForce()).tools).toBe('all');

    expect(await settings('tools', { names: 'calculator current_time' })).toContain(
      'Tools: calculator, current_time',
    );
    bed.model.script({ content: 'Hi.' });
    await bed.say('hello');
    expect(toolNames(bed.model.requests[0]!)).toEqual(['calculator', 'current_time']);

    expect(await settings('protocol', { name: 'react' })).toContain('Protocol: react');
    bed.model.script({ content: 'Thought: easy.\nFinal Answer: Hi.' });
    await bed.say('hello again');
    const react = bed.model.requests[1]!;
    expect(react.body.tools).toBeUndefined();
    const prompt = systemMessages(react)[0]!;
    expect(prompt).toContain('one of [calculator, current_time]');
    expect(prompt).not.toContain('weather');

    // /tools shows only what is in force here.
    const tools = bed.discord.original(await bed.command('tools'))?.content ?? '';
    expect(tools).toContain('Built-in: calculator, current_time');
    expect(tools).not.toContain('weather');

    expect(await settings('tools', { names: 'all' })).toContain('Tools (default): all');
  });

  it('offers only the valid protocol and steps values; Discord itself refuses any other', async () => {
    const subcommand = (name: string) =>
      bed.discord.registered.get('settings')?.options.find((o: { name: string }) => o.name === name);
    const values = (name: string) =>
      subcommand(name)?.options[0].choices.map((c: { value: string }) => c.value);
    expect(values('protocol')).toEqual(['tools', 'react']);
    expect(values('steps')).toEqual(['thread', 'inline', 'off']);
    // Real Discord never sends a value outside the choices: the fake refuses to, as a test that tried would be wrong.
    expect(() =>
      bed.discord.runCommand({
        name: 'settings',
        subcommand: 'protocol',
        options: { name: 'telepathy' },
        channelId: bed.discord.channelId,
        user: bed.alice,
      }),
    ).toThrow(/no choice telepathy/);
    expect((await inForce()).own).toEqual([]);
  });

  it('registers `reset` with an optional `setting` choice, one per setting', () => {
    const reset = bed.discord.registered
      .get('settings')
      ?.options.find((o: { name: string }) => o.name === 'reset');
    expect(reset?.options).toEqual([
      expect.objectContaining({
        name: 'setting',
        type: 3,
        choices: ['prompt', 'model', 'protocol', 'tools', 'steps', 'follow'].map((v) => ({
          name: v,
          value: v,
        })),
      }),
    ]);
    expect(reset?.options[0].required ?? false).toBe(false);
  });

  it('puts the steps in one message with `inline`, and nowhere with `off`', async () => {
    const { discord } = bed;
    await settings('steps', { where: 'inline' });
    bed.model.script(CALCULATION, { content: 'It is 42.' });
    const first = await bed.say('what is 6 * 7?');
    const reply = bed.replyTo(first);
    expect(reply.content).toBe('It is 42.');
    expect(discord.calls.some((c) => c.path.endsWith('/threads'))).toBe(false);
    // Interaction responses (the /settings replies) are webhook messages: not counted.
    const posted = () =>
      discord.messages(discord.channelId).filter((m) => m.author.id === discord.bot.id && !m.webhook_id);
    const steps = posted().filter((m) => m.id !== reply.id);
    expect(steps).toHaveLength(1);
    expect(shownText(steps[0]!)).toMatch(/Thought:[\s\S]*calculator[\s\S]*Observation:[\s\S]*42/);

    await settings('steps', { where: 'off' });
    bed.model.script(CALCULATION, { content: 'Still 42.' });
    const second = await bed.say('and again?');
    expect(bed.replyTo(second).content).toBe('Still 42.');
    expect(discord.calls.some((c) => c.path.endsWith('/threads'))).toBe(false);
    expect(posted()).toHaveLength(3); // the first reply, its steps message, the second reply
  });

  it('applies a channel’s settings in its threads, where /settings and /memory show them too', async () => {
    const { discord } = bed;
    await settings('prompt', { text: 'Answer like a pirate.' });
    const thread = discord.addThread(discord.channelId, 'planning');
    bed.model.script({ content: 'Arr.' });
    await bed.say('hello', { channelId: thread });
    expect(JSON.stringify(bed.model.requests[0]!.body.messages)).toContain('Answer like a pirate.');

    expect(await settings('show', {}, { ...ADMIN, channelId: thread })).toContain(
      'Prompt: Answer like a pirate.',
    );
    const memory = bed.discord.original(await bed.command('memory', { channelId: thread }))?.content;
    expect(memory).toContain('Turns kept verbatim: 1');
    expect(memory).toContain('Prompt: Answer like a pirate.');
  });

  it('resets one setting, or every setting, to the defaults', async () => {
    await settings('prompt', { text: 'Be brief.' });
    await settings('steps', { where: 'off' });
    await settings('model', { name: 'big-model' });
    const prompt = await settings('reset', { setting: 'prompt' });
    expect(prompt).toContain('prompt is back to its default');
    expect((await inForce()).own).toEqual(['model', 'steps']);
    await settings('prompt', { text: 'Be brief.' });
    await settings('model', { name: 'gpt-4o-mini' });
    await settings('reset', { setting: 'model' });
    const one = await settings('reset', { setting: 'steps' });
    expect(one).toContain('steps is back to its default');
    expect(one).toContain('Prompt: Be brief.');
    expect((await inForce()).own).toEqual(['prompt']);
    const reply = await settings('reset');
    expect(reply).toContain('back to the defaults');
    expect(reply).toContain('Prompt (default): none');
    expect((await inForce()).own).toEqual([]);
  });
});
