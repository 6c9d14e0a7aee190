import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/core/ports/store.js';
import { createLocalArrivals } from '../../../src/core/runs/run-queue.js';
import { CONTINUED_BELOW, TOKEN_USE_MS } from '../../../src/platforms/discord/surfaces.js';
import { WORDING } from '../../../src/platforms/shared/wording.js';
import { createGate } from '../../helpers/gate.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { type DiscordBed, startDiscordBed } from './harness.js';

const EPHEMERAL = 64;

describe('Discord: /ask keeps Discord’s deadlines whatever storage does', () => {
  let bed: DiscordBed | undefined;
  afterEach(async () => {
    await bed?.close();
    bed = undefined;
  });

  /** Dispatches /ask without waiting for the bot (the harness's `command` would wait for it to finish). */
  const ask = (question: string) =>
    bed!.discord.runCommand({
      name: 'ask',
      channelId: bed!.discord.channelId,
      user: bed!.alice,
      options: { question },
    });
  const callbacksOf = (id: string) =>
    bed!.discord.calls.filter((c) => c.path.startsWith(`/interactions/${id}/`));

  it('defers within a second while the line is held, then answers once it lets go', async () => {
    const held = createGate();
    const local = createLocalArrivals();
    let arriving = 0;
    bed = await startDiscordBed(
      {},
      {
        line: {
          async arrive(...args) {
            arriving++;
            await held.promise;
            return local.arrive(...args);
          },
        },
      },
    );
    bed.model.script({ content: 'Answered after the wait.' });
    const { id, token } = ask('slow storage?');

    const deferral = await bed.discord.waitForCall((c) => c.path.startsWith(`/interactions/${id}/`));
    expect(arriving).toBe(1); // the line still holds the question
    expect(deferral.body.type).toBe(5);
    expect(deferral.body.data?.flags ?? 0).toBe(0); // public: the answer will go there
    // Accepted: within Discord's 3-second deadline, which the fake enforces (10062 past it).
    expect(deferral.status).toBe(204);
    expect(bed.model.requests).toHaveLength(0);

    held.open();
    await waitUntil(
      () => bed!.discord.original(token)?.content.includes('Answered after the wait.') ?? false,
      {
        what: 'the answer after the line let go',
      },
    );
    await bed.settle();
    expect(bed.discord.original(token)!.content).toBe(
      '-# alice asked: slow storage?\nAnswered after the wait.',
    );
    expect(callbacksOf(id)).toHaveLength(1);
    expect(bed.discord.calls.every((c) => c.status < 400)).toBe(true);
  });

  it('keeps a refusal private when the access check is slow: ephemeral follow-up, public placeholder deleted', async () => {
    const held = createGate();
    let recording = 0;
    const wrapStore = (store: Store): Store =>
      new Proxy(store, {
        get(target, name, receiver) {
          const value = Reflect.get(target, name, receiver);
          if (name !== 'record' || typeof value !== 'function') return value;
          // The refusal's usage record is the access check's storage call: hold it.
          return async (...args: unknown[]) => {
            recording++;
            await held.promise;
            return value.apply(target, args);
          };
        },
      });
    bed = await startDiscordBed({ ALLOW_CHANNELS: '333333333333333333' }, { wrapStore });
    const { id, token } = ask('may I?');

    const deferral = await bed.discord.waitForCall((c) => c.path.startsWith(`/interactions/${id}/`));
    expect(recording).toBe(1);
    expect(deferral.body.type).toBe(5);
    expect(deferral.status).toBe(204);

    held.open();
    await waitUntil(
      () =>
        bed!.discord.calls.some((c) => c.method === 'DELETE' && c.path.includes(token) && c.status === 204),
      { what: 'the public placeholder deleted' },
    );
    await bed.settle();
    expect(bed.discord.original(token)).toBeUndefined(); // nothing left in the channel
    const followUp = bed.discord.calls.find((c) => c.method === 'POST' && c.path.endsWith(`/${token}`));
    expect(followUp?.body.content).toBe(WORDING.refused);
    expect(followUp?.body.flags & EPHEMERAL).toBe(EPHEMERAL);
    const [refusal] = bed.discord
      .messages(bed.discord.channelId)
      .filter((m) => m.content === WORDING.refused);
    expect(refusal?.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(bed.model.requests).toHaveLength(0);
  });

  it('answers a fast refusal with one ephemeral reply and never defers', async () => {
    bed = await startDiscordBed({ ALLOW_CHANNELS: '333333333333333333' });
    const { id } = ask('and now?');
    await bed.settle();
    const answers = callbacksOf(id);
    expect(answers.map((c) => c.body.type)).toEqual([4]);
    expect(answers[0]!.body.data.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(answers[0]!.status).toBe(204);
  });

  describe('an answer that outlives the interaction token', () => {
    const MINUTE = 60_000;
    let offset = 0;
    const now = () => Date.now() + offset;

    /** Asks, lets the steps reach the thread, holds the answer while the clock moves `minutes` on, then lets it go. */
    async function longAnswer(minutes: number) {
      offset = 0;
      const held = createGate();
      bed = await startDiscordBed({}, { now });
      bed.model.script(
        {
          content: 'Let me compute.',
          toolCalls: [{ name: 'calculator', arguments: { expression: '123 * 456 + 789' } }],
        },
        { content: 'It is 56877.', until: held.promise },
      );
      const { discord } = bed;
      const { token } = ask('what is 123 * 456 + 789?');
      await waitUntil(() => bed!.model.requests.length === 2, { what: 'the second model call' });
      const response = discord.original(token)!;
      await waitUntil(() => discord.messages(response.id).some((m) => m.content.includes('Observation')), {
        what: 'the steps in the thread',
      });
      const before = discord.calls.length;
      offset = minutes * MINUTE;
      held.open();
      await waitUntil(
        () =>
          discord.messages(discord.channelId).some((m) => m.message_reference?.message_id === response.id),
        { what: 'the answer continued in the channel' },
      );
      await bed.settle();
      await bed.adapter.idle();
      const later = discord.calls.slice(before);
      const answer = discord
        .messages(discord.channelId)
        .find((m) => m.message_reference?.message_id === response.id)!;
      return { token, response: discord.original(token)!, answer, later };
    }

    it('goes on as a channel message replying to the response, with nothing written through the dead token', async () => {
      const { token, response, answer, later } = await longAnswer(16);
      expect(answer.content).toBe('-# alice asked: what is 123 * 456 + 789?\nIt is 56877.');
      expect(answer.type).toBe(19); // a reply
      expect(answer.webhook_id).toBeUndefined(); // the bot's own message, not the interaction's
      expect(answer.components[0].components.map((b: { custom_id: string }) => b.custom_id)).toEqual([
        expect.stringMatching(/^tt:feedback_up:/),
        expect.stringMatching(/^tt:feedback_down:/),
      ]);
      expect(later.filter((c) => c.path.includes(token))).toEqual([]); // not even tried
      expect(later.every((c) => c.status < 400)).toBe(true);
      expect(response.content).toMatch(/Thinking/); // past 15 minutes the response cannot be touched
    });

    it('marks the response "continued below" when the token still allows it', async () => {
      const { token, response, answer, later } = await longAnswer(14.2);
      expect(answer.content).toBe('-# alice asked: what is 123 * 456 + 789?\nIt is 56877.');
      expect(response.content).toBe(CONTINUED_BELOW);
      expect(response.components).toEqual([]); // its Stop button went with the answer
      const tokenCalls = later.filter((c) => c.path.includes(token));
      // One edit, accepted: the fake refuses the token past DISCORD_LIMITS.interactionTokenMs.
      expect(tokenCalls.map((c) => [c.method, c.status])).toEqual([['PATCH', 200]]);
    });

    it('moves out of the token at 14 minutes even while nothing is written (a long wait in the line)', async () => {
      offset = 0;
      const line = createGate();
      const model = createGate();
      const local = createLocalArrivals();
      bed = await startDiscordBed(
        {},
        {
          now,
          line: {
            async arrive(...args) {
              await line.promise;
              return local.arrive(...args);
            },
          },
        },
      );
      bed.model.script({ content: 'Worth the wait.', until: model.promise });
      const { discord } = bed;
      const sent = discord.now();
      const { token } = ask('a slow one?');
      await discord.waitForCall((c) => c.path.includes(token) && c.path.endsWith('/callback'));
      // The line lets go just before the token's 14 minutes are up: the first edit still goes through it.
      offset = TOKEN_USE_MS - 400 - (Date.now() - sent);
      line.open();
      const reply = () =>
        discord
          .messages(discord.channelId)
          .find((m) => m.message_reference?.message_id === discord.original(token)?.id);
      await waitUntil(() => reply() !== undefined, { what: 'the answer moved to the channel' });
      expect(bed.model.requests.length).toBeLessThanOrEqual(1); // the model has not answered
      expect(reply()!.content).toBe(`-# alice asked: a slow one?\n${WORDING.thinking}`);
      expect(reply()!.components[0].components[0].custom_id).toMatch(/^tt:stop:/); // Stop came along
      const throughToken = discord.calls.filter((c) => c.method === 'PATCH' && c.path.includes(token));
      expect(throughToken[0]?.body.content).toContain(WORDING.thinking); // shown there first, in time
      await waitUntil(() => discord.original(token)?.content === CONTINUED_BELOW, {
        what: 'the response marked',
      });

      model.open();
      await waitUntil(() => reply()!.content.endsWith('Worth the wait.'), {
        what: 'the answer in the channel message',
      });
      await bed.settle();
      expect(discord.original(token)!.content).toBe(CONTINUED_BELOW);
      expect(discord.calls.every((c) => c.status < 400)).toBe(true);
    });
  });
});
