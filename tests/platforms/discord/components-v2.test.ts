import { afterEach, describe, expect, it } from 'vitest';
import { CARD_HEADER } from '../../../src/platforms/discord/steps-card.js';
import { moreSteps } from '../../../src/platforms/shared/wording.js';
import { COMPONENTS_V2_RULES } from '../../fakes/discord-components-v2.js';
import { FAKE_ROLES, type FakeMessage } from '../../fakes/discord-server.js';
import { type DiscordBed, startDiscordBed } from './harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Discord payloads are loose JSON.
type Json = any;

const V2 = COMPONENTS_V2_RULES.flag;
const calculation = (thought: string, expression: string) => ({
  content: thought,
  toolCalls: [{ name: 'calculator', arguments: { expression } }],
});

/** Every component of a message, nested ones included. */
const all = (components: Json[]): Json[] => components.flatMap((c) => [c, ...all(c.components ?? [])]);

describe('Discord: inline steps as components v2 (DISCORD_COMPONENTS_V2)', () => {
  let bed: DiscordBed;
  afterEach(async () => {
    await bed.close();
  });

  /** Starts the bot, sets `/settings steps inline`, asks once, and returns the steps message. */
  const stepsOf = async (env: Record<string, string>, script: Json[]): Promise<FakeMessage> => {
    bed = await startDiscordBed(env);
    await bed.command('settings', {
      subcommand: 'steps',
      values: { where: 'inline' },
      roles: [FAKE_ROLES.manager],
    });
    bed.model.script(...script);
    const question = await bed.say('what is 6 * 7?');
    const reply = bed.replyTo(question);
    expect(reply.content).toBe('It is 42.');
    const { discord } = bed;
    const steps = discord
      .messages(discord.channelId)
      .filter((m) => m.author.id === discord.bot.id && !m.webhook_id && m.id !== reply.id);
    expect(steps).toHaveLength(1);
    // Discord refused nothing the bot sent.
    expect(discord.calls.filter((c) => c.status >= 400)).toEqual([]);
    return steps[0]!;
  };

  it('shows a run’s steps as a container by default: header, separator, one text display per step', async () => {
    const message = await stepsOf({}, [
      calculation('I will use the calculator.', '6 * 7'),
      { content: 'It is 42.' },
    ]);
    expect(message.flags & V2).toBe(V2);
    expect(message.content).toBe('');
    expect(message.components).toHaveLength(1);
    const [card] = message.components;
    expect(card.type).toBe(17);
    const parts = card.components as Json[];
    expect(parts.map((p) => p.type)).toEqual([10, 14, 10, 10, 10]);
    expect(parts[0].content).toBe(CARD_HEADER);
    expect(parts[2].content).toMatch(/Thought:.*calculator/);
    expect(parts[3].content).toMatch(/Action:.*6 \* 7/);
    expect(parts[4].content).toMatch(/Observation:[\s\S]*42/);
  });

  it('keeps a long run within 40 components and 4,000 characters, the rest in a "more steps" line', async () => {
    const turns = Array.from({ length: 15 }, (_, i) =>
      calculation(`Step ${i}: ${'thinking it over '.repeat(25)}`, `${i} + 1`),
    );
    const message = await stepsOf({ DISCORD_COMPONENTS_V2: 'true', AGENT_MAX_STEPS: '20' }, [
      ...turns,
      { content: 'It is 42.' },
    ]);
    expect(message.flags & V2).toBe(V2);
    const components = all(message.components);
    expect(components.length).toBeLessThanOrEqual(COMPONENTS_V2_RULES.components);
    const texts = components.filter((c) => c.type === 10).map((c) => String(c.content));
    expect(texts.join('').length).toBeLessThanOrEqual(COMPONENTS_V2_RULES.text);
    expect(texts[1]).toMatch(/Step 0:/);
    const shown = texts.length - 2; // the header and the "more steps" line
    expect(texts.at(-1)).toBe(`-# ${moreSteps(45 - shown)}`); // 15 turns of thought, action, observation
  });

  it('sends the classic text message with DISCORD_COMPONENTS_V2=false', async () => {
    const message = await stepsOf({ DISCORD_COMPONENTS_V2: 'false' }, [
      calculation('I will use the calculator.', '6 * 7'),
      { content: 'It is 42.' },
    ]);
    expect(message.flags & V2).toBe(0);
    expect(message.components).toEqual([]);
    expect(message.content).toMatch(/Thought:[\s\S]*calculator[\s\S]*Observation:[\s\S]*42/);
  });
});
