import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMPONENTS_V2_RULES } from '../../fakes/discord-components-v2.js';
import { type FakeDiscord, startFakeDiscord } from '../../fakes/discord-server.js';

const V2 = COMPONENTS_V2_RULES.flag;
const text = (content: string) => ({ type: 10, content });
const container = (...components: unknown[]) => ({ type: 17, components });
const button = (custom_id: string, label = 'Go') => ({ type: 2, style: 1, label, custom_id });
const row = (...components: unknown[]) => ({ type: 1, components });

/** The fake keeps Discord's components v2 rules (COMPONENTS_V2_RULES). */
describe('the fake Discord: components v2', () => {
  let discord: FakeDiscord;
  beforeEach(async () => {
    discord = await startFakeDiscord();
  });
  afterEach(async () => {
    await discord.close();
  });

  const call = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${discord.apiUrl}/v10${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: 'Bot fake' },
      body: JSON.stringify(body),
    });
    // biome-ignore lint/suspicious/noExplicitAny: Discord payloads are loose JSON.
    return { status: res.status, body: (await res.json()) as any };
  };
  const post = (body: unknown) => call('POST', `/channels/${discord.channelId}/messages`, body);

  it('takes a container of text displays with the flag, and keeps the flag', async () => {
    const sent = await post({ flags: V2, components: [container(text('a'), { type: 14 }, text('b'))] });
    expect(sent.status).toBe(200);
    expect(sent.body.flags & V2).toBe(V2);
    expect(sent.body.components[0].components).toHaveLength(3);
  });

  it('refuses content or embeds with the flag, and layout components without it (50035)', async () => {
    const body = { components: [container(text('a'))] };
    expect((await post({ ...body, flags: V2, content: 'hi' })).body).toMatchObject({
      code: 50035,
      errors: { content: expect.anything() },
    });
    expect((await post({ ...body, flags: V2, embeds: [{ title: 'x' }] })).body.code).toBe(50035);
    expect((await post(body)).body.code).toBe(50035);
  });

  it('refuses more than 40 components (nested counted) or 4,000 characters of text (50035)', async () => {
    const many = Array.from({ length: COMPONENTS_V2_RULES.components }, () => text('x'));
    expect((await post({ flags: V2, components: [container(...many)] })).body.code).toBe(50035);
    expect((await post({ flags: V2, components: [container(...many.slice(1))] })).status).toBe(200);
    const long = [text('x'.repeat(2_000)), text('y'.repeat(2_001))];
    expect((await post({ flags: V2, components: [container(...long)] })).body.code).toBe(50035);
    expect((await post({ flags: V2, components: [container(...long.slice(1))] })).status).toBe(200);
  });

  it('refuses content on an edit of a components v2 message, whose flag it keeps', async () => {
    const sent = await post({ flags: V2, components: [container(text('a'))] });
    const path = `/channels/${discord.channelId}/messages/${sent.body.id}`;
    expect((await call('PATCH', path, { content: 'now text' })).body.code).toBe(50035);
    const edited = await call('PATCH', path, { components: [container(text('b'))] });
    expect(edited.status).toBe(200);
    expect(edited.body.flags & V2).toBe(V2);
  });

  it('checks nested custom ids: 1-100 characters, unique in the message, on every non-link button (50035)', async () => {
    const sent = (...parts: unknown[]) => post({ flags: V2, components: [container(text('a'), ...parts)] });
    expect((await sent(row(button('approve'), button('deny')))).status).toBe(200);
    expect((await sent(row(button('same'), button('same')))).body).toMatchObject({
      code: 50035,
      errors: {
        components: { 0: { components: { 1: { components: { 1: { custom_id: expect.anything() } } } } } },
      },
    });
    expect((await sent(row(button('x'.repeat(COMPONENTS_V2_RULES.customId + 1))))).body.code).toBe(50035);
    expect((await sent(row({ type: 2, style: 1, label: 'no id' }))).body.code).toBe(50035);
    expect((await sent(row({ type: 2, style: 5, label: 'link', url: 'https://example.com' }))).status).toBe(
      200,
    );
    // Classic messages too.
    expect((await post({ components: [row(button('same'), button('same'))] })).body.code).toBe(50035);
  });

  it('keeps the layout shapes: container children, section texts and accessory, row of at most 5 buttons, separator spacing', async () => {
    const ok = async (component: unknown) => (await post({ flags: V2, components: [component] })).status;
    expect(await ok(container(container(text('a'))))).toBe(400);
    expect(await ok(container(button('loose')))).toBe(400);
    const section = (texts: unknown[], accessory: unknown) => ({ type: 9, components: texts, accessory });
    expect(await ok(section([text('a')], button('more')))).toBe(200);
    expect(await ok(section([text('a'), text('b'), text('c'), text('d')], button('more')))).toBe(400);
    expect(await ok(section([text('a')], undefined))).toBe(400);
    const six = Array.from({ length: COMPONENTS_V2_RULES.rowButtons + 1 }, (_, i) => button(`b${i}`));
    expect(await ok(container(row(...six)))).toBe(400);
    expect(await ok(container(row(...six.slice(1))))).toBe(200);
    expect(await ok(container(text('a'), { type: 14, spacing: 3 }))).toBe(400);
    expect(await ok(container(text('a'), { type: 14, spacing: 2, divider: false }))).toBe(200);
    expect(await ok(button('top'))).toBe(400);
  });
});
