import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DISCORD_ERRORS,
  DISCORD_LIMITS,
  type FakeDiscord,
  startFakeDiscord,
} from '../../fakes/discord-server.js';

/** The fake takes and refuses uploads (multipart `payload_json` + `files[n]`) as Discord does. */
describe('the fake Discord: uploading files with an interaction response', () => {
  let discord: FakeDiscord;
  beforeEach(async () => {
    discord = await startFakeDiscord();
  });
  afterEach(async () => {
    await discord.close();
  });

  const press = () => {
    const message = discord.sendMessage({
      channelId: discord.channelId,
      author: discord.bot,
      content: 'buttons',
      silent: true,
    });
    return discord.pressButton({ message, customId: 'tt:args:1', user: discord.user('a') });
  };
  const upload = async (parts: (form: FormData) => void) => {
    const { id, token } = press();
    const form = new FormData();
    parts(form);
    const res = await fetch(`${discord.apiUrl}/v10/interactions/${id}/${token}/callback`, {
      method: 'POST',
      body: form,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, token };
  };
  const reply = (data: Record<string, unknown> = {}) =>
    JSON.stringify({ type: 4, data: { content: 'here', flags: 64, attachments: [{ id: '0' }], ...data } });
  const file = (text: string) => new Blob([text], { type: 'application/json' });

  it('attaches files[n] to the response, served from its CDN', async () => {
    const answer = await upload((form) => {
      form.append('files[0]', file('{"a": 1}'), 'arguments.json');
      form.append('payload_json', reply());
    });
    expect(answer.status).toBe(204);
    expect(discord.callbacks.at(-1)?.files?.map((f) => f.filename)).toEqual(['arguments.json']);
    const message = discord.original(answer.token)!;
    expect(message.attachments).toMatchObject([{ filename: 'arguments.json', size: 8 }]);
    expect(await (await fetch(message.attachments[0].url)).text()).toBe('{"a": 1}');
  });

  it('refuses a file part without a filename, or not named files[n], with 50035', async () => {
    const unnamed = await upload((form) => {
      form.append('files[0]', '{"a": 1}');
      form.append('payload_json', reply());
    });
    expect(unnamed.body.code).toBe(DISCORD_ERRORS.invalidFormBody.code);
    const misnamed = await upload((form) => {
      form.append('file', file('{}'), 'arguments.json');
      form.append('payload_json', reply());
    });
    expect(misnamed.body.code).toBe(DISCORD_ERRORS.invalidFormBody.code);
  });

  it('refuses more than 10 files with 50035, a file over 10 MiB with 413 40005', async () => {
    const many = await upload((form) => {
      for (let n = 0; n <= DISCORD_LIMITS.upload.files; n++)
        form.append(`files[${n}]`, file('{}'), `${n}.json`);
      form.append('payload_json', reply());
    });
    expect(many.body.code).toBe(DISCORD_ERRORS.invalidFormBody.code);
    const big = await upload((form) => {
      form.append('files[0]', file('x'.repeat(DISCORD_LIMITS.upload.fileBytes + 1)), 'big.json');
      form.append('payload_json', reply());
    });
    expect(big).toMatchObject({ status: 413, body: { code: DISCORD_ERRORS.entityTooLarge.code } });
  });

  it('refuses payload_json that is not JSON with 50109, and files with a response that shows no message', async () => {
    const broken = await upload((form) => {
      form.append('files[0]', file('{}'), 'a.json');
      form.append('payload_json', '{"type": 4,');
    });
    expect(broken.body.code).toBe(DISCORD_ERRORS.invalidJson.code);
    const deferred = await upload((form) => {
      form.append('files[0]', file('{}'), 'a.json');
      form.append('payload_json', JSON.stringify({ type: 6 }));
    });
    expect(deferred.body.code).toBe(DISCORD_ERRORS.invalidFormBody.code);
  });
});
