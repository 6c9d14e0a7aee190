import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CARD_HEADER } from '../../../src/platforms/discord/steps-card.js';
import { COMPONENTS_V2_RULES } from '../../fakes/discord-components-v2.js';
import { FAKE_ROLES, type FakeMessage } from '../../fakes/discord-server.js';
import { createGate } from '../../helpers/gate.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { stdioTestServer, writeMcpJson } from '../../mcp/mcp-fixture.js';
import { buttonIds, press } from './approval-steps.js';
import { type DiscordBed, startDiscordBed } from './harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Discord payloads are loose JSON.
type Json = any;

const V2 = COMPONENTS_V2_RULES.flag;
const CALCULATOR_RUN = [
  { content: 'Computing.', toolCalls: [{ name: 'calculator', arguments: { expression: '2 + 2' } }] },
  { content: 'It is 4.' },
];

/** Every component of a message, nested ones included. */
const all = (components: Json[]): Json[] => components.flatMap((c) => [c, ...all(c.components ?? [])]);
const texts = (message: Pick<FakeMessage, 'components'>): string[] =>
  all(message.components)
    .filter((c) => c.type === 10)
    .map((c) => String(c.content));

describe('Discord: /ask with DISCORD_COMPONENTS_V2, through the interaction', () => {
  let bed: DiscordBed | undefined;
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-discord-ask-v2-'));
  });
  afterEach(async () => {
    await bed?.close();
    bed = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every REST call the bot made with its own token about `channelId`. */
  const botTokenCalls = (channelId: string) =>
    bed!.discord.calls.filter((c) => c.path.startsWith(`/channels/${channelId}`));
  /** The interaction's messages other than its response: its follow-ups, as Discord keeps them. */
  const followUpsIn = (channelId: string, token: string) => {
    const original = bed!.discord.original(token);
    if (!original) return [];
    const of = original.interaction_metadata.id;
    return bed!.discord
      .messages(channelId)
      .filter((m) => m.interaction_metadata?.id === of && m.id !== original.id);
  };
  /** The steps card: one container, header, separator, a text display per step. */
  const expectStepsCard = (message: FakeMessage) => {
    expect(message.flags & V2).toBe(V2);
    expect(message.content).toBe('');
    const [card, ...more] = message.components;
    expect(more).toEqual([]);
    expect(card.type).toBe(17);
    expect(card.components.map((c: Json) => c.type)).toEqual([10, 14, 10, 10, 10]);
    const [header, thought, action, observation] = texts(message);
    expect(header).toBe(CARD_HEADER);
    expect(thought).toMatch(/Thought:\*\* Computing\./);
    expect(action).toMatch(/Action:.*2 \+ 2/);
    expect(observation).toMatch(/Observation:[\s\S]*4/);
  };

  it('in a channel set to inline steps: the steps card is a follow-up of the command', async () => {
    bed = await startDiscordBed({ DISCORD_COMPONENTS_V2: 'true' });
    await bed.command('settings', {
      subcommand: 'steps',
      values: { where: 'inline' },
      roles: [FAKE_ROLES.manager],
    });
    bed.model.script(...CALCULATOR_RUN);
    const token = await bed.command('ask', { question: 'what is 2 + 2?' });
    expect(bed.discord.original(token)!.content).toBe('-# alice asked: what is 2 + 2?\nIt is 4.');
    const [steps, ...more] = followUpsIn(bed.discord.channelId, token);
    expect(more).toEqual([]);
    expectStepsCard(steps!);
    expect(bed.discord.calls.filter((c) => c.status >= 400)).toEqual([]);
  });

  it('once Discord refuses the token, the steps card goes on as a card of the bot in the channel', async () => {
    const held = createGate();
    bed = await startDiscordBed({ DISCORD_COMPONENTS_V2: 'true' });
    await bed.command('settings', {
      subcommand: 'steps',
      values: { where: 'inline' },
      roles: [FAKE_ROLES.manager],
    });
    bed.model.script(
      CALCULATOR_RUN[0]!,
      {
        content: 'Once more.',
        toolCalls: [{ name: 'calculator', arguments: { expression: '4 + 4' } }],
        until: held.promise,
      },
      { content: 'It is 8.' },
    );
    const { discord } = bed;
    const { token } = discord.runCommand({
      name: 'ask',
      channelId: discord.channelId,
      user: bed.alice,
      options: { question: 'what is 4 + 4?' },
    });
    // The card holds the header and the first tool call's thought, action and observation.
    await waitUntil(
      () => texts(followUpsIn(discord.channelId, token)[0] ?? { components: [] }).length === 4,
      {
        what: 'the first steps in the card',
      },
    );
    discord.revokeToken(token);
    held.open();
    const card = () =>
      discord
        .messages(discord.channelId)
        .find((m) => !m.webhook_id && m.author.id === discord.bot.id && m.flags & V2);
    await waitUntil(() => texts(card() ?? { components: [] }).some((t) => t.includes('4 + 4')), {
      what: 'the steps going on in a channel card',
    });
    await bed.settle();
    await bed.adapter.idle();
    expect(card()!.content).toBe('');
    expect(texts(card()!)[0]).toBe(CARD_HEADER);
    expect(discord.calls.filter((c) => c.status >= 400).map((c) => c.status)).toEqual(
      expect.arrayContaining([401]),
    );
    expect(discord.calls.filter((c) => c.status === 400)).toEqual([]);
  });

  it.each(['guild', 'group-dm'] as const)(
    'where the bot is not a member (%s): the steps card goes as a follow-up, nothing with the bot token',
    async (kind) => {
      bed = await startDiscordBed({ DISCORD_COMPONENTS_V2: 'true' });
      const place = bed.discord.addUserInstallPlace(kind, [bed.alice, bed.discord.user('bob')]);
      bed.model.script(...CALCULATOR_RUN);
      const token = await bed.command('ask', { channelId: place, question: 'what is 2 + 2?' });
      expect(bed.discord.original(token)!.content).toBe('-# alice asked: what is 2 + 2?\nIt is 4.');
      const [steps, ...more] = followUpsIn(place, token);
      expect(more).toEqual([]);
      expectStepsCard(steps!);
      expect(botTokenCalls(place)).toEqual([]);
      expect(bed.discord.calls.filter((c) => c.status >= 400)).toEqual([]);
    },
  );

  it('where the bot is not a member, an approval card is a follow-up too, closed through the token once decided', async () => {
    bed = await startDiscordBed({
      DISCORD_COMPONENTS_V2: 'true',
      MCP_CONNECT_TIMEOUT_MS: '60000',
      MCP_CONFIG: writeMcpJson(dir, { test: stdioTestServer() }),
    });
    const place = bed.discord.addUserInstallPlace('guild');
    bed.model.script(
      { toolCalls: [{ name: 'test__echo', arguments: { text: 'hi' } }] },
      { content: 'Echoed.' },
    );
    const { token } = bed.discord.runCommand({
      name: 'ask',
      channelId: place,
      user: bed.alice,
      options: { question: 'echo hi' },
    });
    let approval: FakeMessage | undefined;
    await waitUntil(
      () => {
        approval = bed!.discord.messages(place).find((m) => buttonIds(m).length >= 2);
        return approval !== undefined;
      },
      { what: 'the approval card' },
    );
    expect(approval!.flags & V2).toBe(V2);
    expect(approval!.webhook_id).toBeDefined();
    expect(texts(approval!)[0]).toBe('**Approval needed:** `test__echo`');

    expect((await press(bed, approval!, buttonIds(approval!)[0]!, bed.alice)).type).toBe(6);
    await waitUntil(() => bed!.discord.original(token)!.content.endsWith('Echoed.'), { what: 'the answer' });
    await waitUntil(() => buttonIds(approval!).length === 0, { what: 'the buttons to go' });
    expect(texts(approval!).at(-1)).toBe('**test__echo approved by alice.**');
    expect(botTokenCalls(place)).toEqual([]);
    expect(bed.discord.calls.filter((c) => c.status >= 400)).toEqual([]);
  });
});
