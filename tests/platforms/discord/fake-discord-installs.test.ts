import { afterEach, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src/platforms/discord/commands.js';
import { INSTALL_RULES } from '../../fakes/discord-installs.js';
import { DISCORD_ERRORS, type FakeDiscord, startFakeDiscord } from '../../fakes/discord-server.js';

// biome-ignore lint/suspicious/noExplicitAny: Discord payloads are loose JSON.
type Json = any;

/** The fake keeps Discord's rules for installs and the places a person's own install reaches (INSTALL_RULES). */
describe('the fake Discord: user installs', () => {
  let discord: FakeDiscord;
  afterEach(async () => {
    await discord.close();
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${discord.apiUrl}/v10${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: 'Bot fake' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const register = (commands: Json[]) =>
    call('PUT', `/applications/${discord.applicationId}/commands`, commands);
  const command = (fields: Json) => ({ name: 'x', description: 'x', ...fields });

  it('takes integration_types the app allows and contexts 0-2; PRIVATE_CHANNEL only with USER_INSTALL', async () => {
    discord = await startFakeDiscord({ installTypes: [0] });
    expect((await register([command({ integration_types: [0], contexts: [0, 1] })])).status).toBe(200);
    const userInstall = await register([command({ integration_types: [0, 1] })]);
    expect(userInstall.status).toBe(DISCORD_ERRORS.invalidFormBody.status);
    expect(userInstall.body.errors['0'].integration_types).toBeDefined();
    expect((await register([command({ integration_types: [0], contexts: [0, 2] })])).body.code).toBe(50035);
    expect((await register([command({ contexts: [3] })])).body.code).toBe(50035);
    // Unset: integration_types [0], contexts [0, 1, 2], which needs USER_INSTALL.
    expect(INSTALL_RULES.defaults).toEqual({ integrationTypes: [0], contexts: [0, 1, 2] });
    expect((await register([command({})])).body.code).toBe(50035);
  });

  it('accepts the bot’s own commands where the app allows user installs', async () => {
    discord = await startFakeDiscord();
    expect((await register([...COMMANDS])).status).toBe(200);
  });

  it('answers the bot token 403 50001 Missing Access in a server it is not in, and in a group DM', async () => {
    discord = await startFakeDiscord();
    for (const kind of ['guild', 'group-dm'] as const) {
      const place = discord.addUserInstallPlace(kind);
      const posted = await call('POST', `/channels/${place}/messages`, { content: 'hello' });
      expect(posted).toMatchObject({ status: 403, body: { code: DISCORD_ERRORS.missingAccess.code } });
      expect((await call('GET', `/channels/${place}/messages`)).status).toBe(403);
    }
    expect((await call('POST', `/channels/${discord.channelId}/messages`, { content: 'hi' })).status).toBe(
      200,
    );
  });

  it('refuses a sixth follow-up where only a user install reaches (40094), not in the bot’s own server', async () => {
    discord = await startFakeDiscord();
    await register([...COMMANDS]);
    const alice = discord.user('alice');
    const place = discord.addUserInstallPlace('group-dm', [alice]);
    const { id, token } = discord.runCommand({
      name: 'ask',
      channelId: place,
      user: alice,
      options: { question: 'q' },
    });
    expect(
      (await call('POST', `/interactions/${id}/${token}/callback`, { type: 4, data: { content: 'a' } }))
        .status,
    ).toBe(204);
    const followUp = () => call('POST', `/webhooks/${discord.applicationId}/${token}`, { content: 'more' });
    for (let i = 0; i < INSTALL_RULES.userInstallFollowUps; i++) expect((await followUp()).status).toBe(200);
    expect((await followUp()).body.code).toBe(DISCORD_ERRORS.maxFollowUps.code);

    // In the bot's own server there is no such limit.
    const own = discord.runCommand({
      name: 'ask',
      channelId: discord.channelId,
      user: alice,
      options: { question: 'q' },
    });
    await call('POST', `/interactions/${own.id}/${own.token}/callback`, { type: 4, data: { content: 'a' } });
    for (let i = 0; i <= INSTALL_RULES.userInstallFollowUps; i++)
      expect(
        (await call('POST', `/webhooks/${discord.applicationId}/${own.token}`, { content: 'more' })).status,
      ).toBe(200);
  });

  it('lets a person run only what is registered for where they are', async () => {
    discord = await startFakeDiscord();
    await register([...COMMANDS]);
    const alice = discord.user('alice');
    const elsewhere = discord.addUserInstallPlace('guild');
    expect(() => discord.runCommand({ name: 'reset', channelId: elsewhere, user: alice })).toThrow(
      /user installs/,
    );
    expect(() => discord.runCommand({ name: 'tools', channelId: elsewhere, user: alice })).not.toThrow();
  });
});
