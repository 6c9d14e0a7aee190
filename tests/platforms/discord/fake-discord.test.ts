import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src/platforms/discord/commands.js';
import {
  DISCORD_ERRORS,
  DISCORD_LIMITS,
  type FakeDiscord,
  startFakeDiscord,
} from '../../fakes/discord-server.js';

/** The fake refuses what Discord refuses: each rule of its table, called over HTTP as discord.js would. */
describe('the fake Discord keeps Discord’s contract', () => {
  let discord: FakeDiscord;
  let offset = 0;
  const later = (ms: number) => {
    offset += ms;
  };
  beforeEach(async () => {
    offset = 0;
    discord = await startFakeDiscord({ now: () => Date.now() + offset });
  });
  afterEach(async () => {
    await discord.close();
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${discord.apiUrl}/v10${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const ask = () =>
    discord.runCommand({ name: 'ask', channelId: discord.channelId, user: discord.user('a') });
  const callback = (id: string, token: string, body: unknown) =>
    call('POST', `/interactions/${id}/${token}/callback`, body);
  const expectError = (
    answer: { status: number; body: { code: number } },
    error: (typeof DISCORD_ERRORS)[keyof typeof DISCORD_ERRORS],
  ) => {
    expect(answer.status).toBe(error.status);
    expect(answer.body.code).toBe(error.code);
  };
  const webhook = (token: string) => `/webhooks/${discord.applicationId}/${token}`;

  it('refuses an initial response later than 3 s with 404 10062 Unknown interaction', async () => {
    const late = ask();
    later(DISCORD_LIMITS.initialResponseMs + 1);
    expectError(await callback(late.id, late.token, { type: 5 }), DISCORD_ERRORS.unknownInteraction);

    const onTime = ask();
    later(DISCORD_LIMITS.initialResponseMs - 100);
    expect((await callback(onTime.id, onTime.token, { type: 5 })).status).toBe(204);
  });

  it('refuses a second initial response with 400 40060', async () => {
    const { id, token } = ask();
    expect((await callback(id, token, { type: 5 })).status).toBe(204);
    expectError(
      await callback(id, token, { type: 4, data: { content: 'again' } }),
      DISCORD_ERRORS.alreadyAcknowledged,
    );
  });

  it('refuses every webhook call with a token older than 15 minutes: 401 50027 Invalid Webhook Token', async () => {
    const { id, token } = ask();
    await callback(id, token, { type: 5 });
    later(DISCORD_LIMITS.interactionTokenMs - 1_000);
    expect(
      (await call('PATCH', `${webhook(token)}/messages/@original`, { content: 'still in time' })).status,
    ).toBe(200);
    later(2_000);
    expectError(
      await call('PATCH', `${webhook(token)}/messages/@original`, { content: 'too late' }),
      DISCORD_ERRORS.invalidWebhookToken,
    );
    expectError(
      await call('POST', webhook(token), { content: 'too late' }),
      DISCORD_ERRORS.invalidWebhookToken,
    );
    expectError(
      await call('GET', `${webhook(token)}/messages/@original`),
      DISCORD_ERRORS.invalidWebhookToken,
    );
    expectError(
      await call('DELETE', `${webhook(token)}/messages/@original`),
      DISCORD_ERRORS.invalidWebhookToken,
    );
    expect(discord.original(token)?.content).toBe('still in time');
  });

  it('refuses every webhook call with a revoked token, however young: 401 50027 Invalid Webhook Token', async () => {
    const { id, token } = ask();
    await callback(id, token, { type: 5 });
    const answered = await call('PATCH', `${webhook(token)}/messages/@original`, { content: 'in time' });
    expect(answered.status).toBe(200);
    const followUp = await call('POST', webhook(token), { content: 'a follow-up' });
    expect(followUp.status).toBe(200);
    discord.revokeToken(token);
    for (const [method, path] of [
      ['PATCH', `${webhook(token)}/messages/@original`],
      ['POST', webhook(token)],
      ['PATCH', `${webhook(token)}/messages/${followUp.body.id}`],
      ['GET', `${webhook(token)}/messages/@original`],
    ] as const) {
      const body = method === 'GET' ? undefined : { content: 'refused' };
      expectError(await call(method, path, body), DISCORD_ERRORS.invalidWebhookToken);
    }
    expect(discord.original(token)?.content).toBe('in time');
  });

  it('refuses message content over 2,000 characters with 400 50035 Invalid Form Body, everywhere', async () => {
    const limit = DISCORD_LIMITS.messageContent;
    const channel = `/channels/${discord.channelId}/messages`;
    const tooLong = { content: 'x'.repeat(limit + 1) };
    const posted = await call('POST', channel, { content: 'x'.repeat(limit) });
    expect(posted.status).toBe(200);
    const refused = await call('POST', channel, tooLong);
    expectError(refused, DISCORD_ERRORS.invalidFormBody);
    expect(refused.body.errors.content._errors[0].message).toMatch(/2000 or fewer/);
    expectError(await call('PATCH', `${channel}/${posted.body.id}`, tooLong), DISCORD_ERRORS.invalidFormBody);

    const { id, token } = ask();
    const early = await callback(id, token, { type: 4, data: tooLong });
    expectError(early, DISCORD_ERRORS.invalidFormBody);
    expect(early.body.errors.data.content).toBeDefined();
    expect((await callback(id, token, { type: 5 })).status).toBe(204); // the refused response did not count
    expectError(await call('POST', webhook(token), tooLong), DISCORD_ERRORS.invalidFormBody);
    expectError(
      await call('PATCH', `${webhook(token)}/messages/@original`, tooLong),
      DISCORD_ERRORS.invalidFormBody,
    );
  });

  it('makes the first follow-up to an unedited deferral that response, ignoring its ephemeral flag', async () => {
    const { id, token } = ask();
    await callback(id, token, { type: 5 }); // public "thinking…"
    const first = await call('POST', webhook(token), { content: 'meant to be private', flags: 64 });
    expect(first.body.id).toBe(discord.original(token)!.id);
    expect(first.body.flags & 64).toBe(0); // public, like the deferral
    const second = await call('POST', webhook(token), { content: 'private now', flags: 64 });
    expect(second.body.id).not.toBe(first.body.id);
    expect(second.body.flags & 64).toBe(64);
  });

  it('refuses a message with nothing in it with 400 50006', async () => {
    expectError(
      await call('POST', `/channels/${discord.channelId}/messages`, { content: '' }),
      DISCORD_ERRORS.emptyMessage,
    );
  });

  it('refuses a custom_id over 100 characters with 50035', async () => {
    const button = (customId: string) => ({
      content: 'buttons',
      components: [{ type: 1, components: [{ type: 2, style: 2, label: 'x', custom_id: customId }] }],
    });
    const channel = `/channels/${discord.channelId}/messages`;
    expect((await call('POST', channel, button('x'.repeat(DISCORD_LIMITS.customId)))).status).toBe(200);
    const refused = await call('POST', channel, button('x'.repeat(DISCORD_LIMITS.customId + 1)));
    expectError(refused, DISCORD_ERRORS.invalidFormBody);
    expect(refused.body.errors.components[0].components[0].custom_id).toBeDefined();
  });

  it('refuses a thread name over 100 characters, or an archive duration Discord does not offer', async () => {
    const channel = `/channels/${discord.channelId}/messages`;
    const message = (await call('POST', channel, { content: 'start here' })).body;
    const threads = `${channel}/${message.id}/threads`;
    const name = 'n'.repeat(DISCORD_LIMITS.threadName + 1);
    expectError(await call('POST', threads, { name }), DISCORD_ERRORS.invalidFormBody);
    expectError(
      await call('POST', threads, { name: 'ok', auto_archive_duration: 100 }),
      DISCORD_ERRORS.invalidFormBody,
    );
    expect((await call('POST', threads, { name: 'ok', auto_archive_duration: 1440 })).status).toBe(201);
  });

  it('validates registered commands as Discord does, and accepts the bot’s own', async () => {
    const path = `/applications/${discord.applicationId}/commands`;
    expect((await call('PUT', path, COMMANDS)).status).toBe(200);
    const command = (fields: Record<string, unknown>) => [{ name: 'ask', description: 'Ask.', ...fields }];
    const text = (name: string, more: Record<string, unknown> = {}) => ({
      type: 3,
      name,
      description: 'd',
      ...more,
    });
    const broken: [string, unknown][] = [
      ['an uppercase name', command({ name: 'Ask' })],
      ['a name over 32 characters', command({ name: 'a'.repeat(33) })],
      ['a space in a name', command({ name: 'ask me' })],
      ['no description', command({ description: '' })],
      ['a description over 100 characters', command({ description: 'd'.repeat(101) })],
      ['26 options', command({ options: Array.from({ length: 26 }, (_, i) => text(`o${i}`)) })],
      [
        '26 choices',
        command({
          options: [
            text('pick', {
              choices: Array.from({ length: 26 }, (_, i) => ({ name: `c${i}`, value: `c${i}` })),
            }),
          ],
        }),
      ],
      [
        'a required option after an optional one',
        command({ options: [text('a'), text('b', { required: true })] }),
      ],
      [
        'a subcommand beside a plain option',
        command({ options: [text('a'), { type: 1, name: 's', description: 'd' }] }),
      ],
      ['two options of one name', command({ options: [text('a'), text('a')] })],
      ['max_length over 6,000', command({ options: [text('a', { max_length: 6001 })] })],
      ['two commands of one name', [...command({}), ...command({})]],
    ];
    for (const [what, body] of broken) {
      const answer = await call('PUT', path, body);
      expect({ what, status: answer.status, code: answer.body.code }).toEqual({
        what,
        status: 400,
        code: 50035,
      });
    }
    // A refused registration leaves the previous one in force.
    expect([...discord.registered.keys()]).toEqual(COMMANDS.map((c) => c.name));
  });

  it('refuses to send an interaction a registered command could not produce', async () => {
    await call('PUT', `/applications/${discord.applicationId}/commands`, COMMANDS);
    const run = (subcommand: string, options: Record<string, string>) => () =>
      discord.runCommand({
        name: 'settings',
        subcommand,
        options,
        channelId: discord.channelId,
        user: discord.user('a'),
      });
    expect(run('reset', { setting: 'prompt' })).not.toThrow();
    expect(run('reset', { setting: 'everything' })).toThrow(/no choice/);
    expect(run('show', { setting: 'prompt' })).toThrow(/registers no option/);
    expect(run('rename', {})).toThrow(/no subcommand/);
    expect(run('prompt', { text: 'x'.repeat(2001) })).toThrow(/max_length/);
    expect(run('prompt', {})).toThrow(/needs option text/);
  });
});
