import { afterEach, describe, expect, it } from 'vitest';
import type { FakeMessage } from '../../fakes/discord-server.js';
import { createGate } from '../../helpers/gate.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { type DiscordBed, startDiscordBed } from './harness.js';
import { shownText } from './shown-text.js';

// Two paragraphs over Discord's 2,000 characters: the answer takes a second message.
const FIRST = `First part: ${'the answer goes on '.repeat(80).trim()} until here.`;
const SECOND = `Second part: ${'and it keeps going '.repeat(50).trim()} to the end.`;
const ANSWER = `${FIRST}\n\n${SECOND}`;

describe('Discord: /ask when Discord refuses the interaction token early (401, 50027)', () => {
  let bed: DiscordBed | undefined;
  afterEach(async () => {
    await bed?.close();
    bed = undefined;
    made = [];
  });

  const ask = (question: string, channelId = bed!.discord.channelId) =>
    bed!.discord.runCommand({ name: 'ask', channelId, user: bed!.alice, options: { question } });
  /** Channels made by the test, besides the fake's own. */
  let made: string[] = [];
  /** Every message anywhere (the channel, the test's and the bot's threads) whose text holds `text`. */
  const everywhere = (text: string): FakeMessage[] => {
    const { discord } = bed!;
    const written = discord.calls.flatMap((c) => /^\/channels\/(\d+)\//.exec(c.path)?.[1] ?? []);
    const ids = new Set([discord.channelId, ...made, ...written]);
    return [...ids].flatMap((id) => discord.messages(id)).filter((m) => m.content.includes(text));
  };
  const tokenCalls = (token: string, from: number) =>
    bed!.discord.calls
      .slice(from)
      .filter((c) => c.path.includes(token))
      .map((c) => [c.method, c.status]);

  it('moves the answer, cut off mid-stream, to one channel message replying to the question, with its overflow', async () => {
    const held = createGate();
    bed = await startDiscordBed();
    bed.model.script(
      {
        content: 'Let me compute.',
        toolCalls: [{ name: 'calculator', arguments: { expression: '123 * 456 + 789' } }],
      },
      { content: ANSWER, pauseAt: { chars: 400, until: held.promise } },
    );
    const { discord } = bed;
    const { token } = ask('tell me at length');
    // Streaming holds back the last 160 characters it has.
    const started = FIRST.slice(0, 200);
    await waitUntil(() => discord.original(token)?.content.includes(started) ?? false, {
      what: 'the start of the answer streamed into the response',
    });
    const response = discord.original(token)!;
    const before = discord.calls.length;
    discord.revokeToken(token);
    held.open();
    const answer = () =>
      discord.messages(discord.channelId).find((m) => m.message_reference?.message_id === response.id);
    await waitUntil(() => answer()?.content.endsWith('until here.') ?? false, {
      what: 'the answer in a channel message',
    });
    await waitUntil(() => everywhere('to the end.').length > 0, { what: 'the overflow' });
    await bed.settle();
    await bed.adapter.idle();

    const header = '-# alice asked: tell me at length';
    expect(answer()!.content).toBe(`${header}\n${FIRST}`);
    expect(answer()!.type).toBe(19); // a reply to the response, which shows the question
    expect(answer()!.webhook_id).toBeUndefined(); // the bot's own message, not the interaction's
    expect(answer()!.components[0].components.map((b: { custom_id: string }) => b.custom_id)).toEqual([
      expect.stringMatching(/^tt:feedback_up:/),
      expect.stringMatching(/^tt:feedback_down:/),
    ]);
    const overflow = everywhere('to the end.');
    expect(overflow.map((m) => [m.content, m.channel_id, m.webhook_id])).toEqual([
      [SECOND, discord.channelId, undefined],
    ]);
    // Each part once in all of Discord: the response kept only the streamed start.
    expect(everywhere('until here.')).toHaveLength(1);
    expect(discord.original(token)!.content).not.toContain('until here.');
    // The token was refused once, and never tried again.
    expect(tokenCalls(token, before)).toEqual([['PATCH', 401]]);
    expect(discord.calls.slice(before).filter((c) => c.status >= 400)).toHaveLength(1);
  });

  it('moves the steps message and the answer to the channel when the token is refused between steps', async () => {
    const held = createGate();
    bed = await startDiscordBed();
    const { discord } = bed;
    // In a thread no thread can be started: the steps are one message, a follow-up through the token.
    const thread = discord.addThread(discord.channelId);
    made = [thread];
    bed.model.script(
      { content: 'First step.', toolCalls: [{ name: 'calculator', arguments: { expression: '1 + 1' } }] },
      {
        content: 'Second step.',
        toolCalls: [{ name: 'calculator', arguments: { expression: '2 + 2' } }],
        until: held.promise,
      },
      { content: 'Both done: 2 and 4.' },
    );
    const { token } = ask('add twice', thread);
    const stepsMessage = () =>
      discord.messages(thread).find((m) => m.webhook_id && shownText(m).includes('1 + 1 = 2'));
    await waitUntil(() => stepsMessage() !== undefined, { what: 'the first steps through the token' });
    const response = discord.original(token)!;
    const before = discord.calls.length;
    discord.revokeToken(token);
    held.open();
    await waitUntil(() => everywhere('Both done: 2 and 4.').length > 0, { what: 'the answer' });
    await bed.settle();
    await bed.adapter.idle();

    const [answer, ...twice] = everywhere('Both done: 2 and 4.');
    expect(twice).toEqual([]);
    expect(answer).toMatchObject({
      channel_id: thread,
      content: '-# alice asked: add twice\nBoth done: 2 and 4.',
      message_reference: { message_id: response.id },
    });
    expect(answer!.webhook_id).toBeUndefined();
    const steps = discord.messages(thread).filter((m) => shownText(m).includes('2 + 2 = 4'));
    expect(steps).toHaveLength(1); // the steps go on in a channel message of the bot's own
    expect(steps[0]!.webhook_id).toBeUndefined();
    expect(shownText(stepsMessage()!)).not.toContain('2 + 2 = 4');
    const refused = tokenCalls(token, before);
    // Refused, and not tried again: at most the writes in flight at the revocation (steps, answer).
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length).toBeLessThanOrEqual(2);
    expect(refused.every(([, status]) => status === 401)).toBe(true);
  });
});
