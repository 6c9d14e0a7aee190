import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/core/ports/store.js';
import { createLocalArrivals } from '../../../src/core/runs/run-queue.js';
import { DEFER_AFTER_MS } from '../../../src/platforms/discord/handle-ask.js';
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
    const sent = bed.discord.now();
    const { id, token } = ask('slow storage?');

    const deferral = await bed.discord.waitForCall((c) => c.path.startsWith(`/interactions/${id}/`));
    expect(arriving).toBe(1); // the line still holds the question
    expect(deferral.body.type).toBe(5);
    expect(deferral.body.data?.flags ?? 0).toBe(0); // public: the answer will go there
    expect(deferral.status).toBe(204);
    expect(deferral.at - sent).toBeLessThan(1_000);
    expect(deferral.at - sent).toBeGreaterThanOrEqual(DEFER_AFTER_MS - 50);
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
    const sent = bed.discord.now();
    const { id, token } = ask('may I?');

    const deferral = await bed.discord.waitForCall((c) => c.path.startsWith(`/interactions/${id}/`));
    expect(recording).toBe(1);
    expect(deferral.body.type).toBe(5);
    expect(deferral.at - sent).toBeLessThan(1_000);

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
    const sent = bed.discord.now();
    const { id } = ask('and now?');
    await bed.settle();
    const answers = callbacksOf(id);
    expect(answers.map((c) => c.body.type)).toEqual([4]);
    expect(answers[0]!.body.data.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(answers[0]!.at - sent).toBeLessThan(DEFER_AFTER_MS);
    expect(answers[0]!.status).toBe(204);
  });
});
