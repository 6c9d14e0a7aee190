import { afterEach, describe, expect, it } from 'vitest';
import { parseRunActionId, runActionId } from '../../../src/platforms/shared/run-actions.js';
import { WORDING } from '../../../src/platforms/shared/wording.js';
import { FAKE_ROLES, type FakeMessage, type FakeUser } from '../../fakes/discord-server.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { type DiscordBed, startDiscordBed } from './harness.js';

const WRITTEN = `${'The first part of a long answer. '.repeat(6)}`;
/** A reply that streams WRITTEN (past the 160 characters held back) and then waits until it is stopped. */
const SLOW = { content: `${WRITTEN}and the rest, never sent.`, pauseAt: { chars: WRITTEN.length } };

type Row = { components: { custom_id: string }[] };
const buttonIds = (message: FakeMessage): string[] =>
  ((message.components ?? []) as Row[]).flatMap((row) => row.components.map((b) => b.custom_id));

describe('Discord: Stop and feedback buttons', () => {
  let bed: DiscordBed | undefined;
  afterEach(async () => {
    await bed?.close();
    bed = undefined;
  });

  /** Asks without waiting for the answer; resolves with the reply once it shows the streamed text. */
  async function askSlowly(b: DiscordBed, author: FakeUser = b.alice): Promise<FakeMessage> {
    const question = b.discord.sendMessage({
      channelId: b.discord.channelId,
      author,
      content: `<@${b.discord.bot.id}> tell me a long story`,
      mentions: [b.discord.bot],
    });
    let reply: FakeMessage | undefined;
    await waitUntil(
      () => {
        reply = b.discord
          .messages(b.discord.channelId)
          .find((m) => m.message_reference?.message_id === question.id);
        return reply?.content.startsWith(WRITTEN.trim()) ?? false;
      },
      { what: 'the answer to stream in' },
    );
    return reply!;
  }

  /** Presses a button and resolves with the bot's answer to that press, once the bot is idle again. */
  async function press(
    b: DiscordBed,
    message: FakeMessage,
    customId: string,
    user: FakeUser,
    roles?: string[],
  ) {
    const { id } = b.discord.pressButton({ message, customId, user, roles });
    await b.discord.waitForCall((c) => c.path.startsWith(`/interactions/${id}/`));
    await b.settle();
    return b.discord.callbacks.find((c) => c.id === id)!;
  }

  const stopId = (reply: FakeMessage) => {
    const id = buttonIds(reply)[0]!;
    expect(parseRunActionId(id)?.action).toBe('stop');
    return id;
  };

  it('lets the asker stop an answer: it keeps what was written, says who stopped it, and is not remembered', async () => {
    bed = await startDiscordBed();
    bed.model.script(SLOW);
    const reply = await askSlowly(bed);
    const stop = stopId(reply);
    const ack = await press(bed, reply, stop, bed.alice);
    expect(ack.type).toBe(6); // acknowledged within Discord's 3 s, silently
    expect(reply.content).toBe(`${WRITTEN.trim()}\n\n${WORDING.stopped}`);
    expect(reply.content).not.toContain('never sent');
    const steps = bed.discord.messages(reply.id).map((m) => m.content);
    expect(steps.at(-1)).toBe('-# Stopped by alice.');
    // Stop gave way to 👍 / 👎 on the same run.
    const runId = parseRunActionId(stop)!.runId;
    expect(buttonIds(reply)).toEqual([
      runActionId('feedback_up', runId),
      runActionId('feedback_down', runId),
    ]);
    expect(
      (await bed.test.core.assistant.history(`discord:${bed.discord.guildId}:${bed.discord.channelId}`))
        .turns,
    ).toEqual([]);
  });

  it('tells anyone else that only the asker can stop, and lets an admin stop it', async () => {
    bed = await startDiscordBed();
    bed.model.script(SLOW);
    const reply = await askSlowly(bed);
    const stop = stopId(reply);
    const bob = bed.discord.user('bob');
    // The answer goes on meanwhile, so the bot is not idle: only the answer to the press is waited for.
    const pressed = bed.discord.pressButton({ message: reply, customId: stop, user: bob });
    await bed.discord.waitForCall((c) => c.path.startsWith(`/interactions/${pressed.id}/`));
    const refused = bed.discord.callbacks.find((c) => c.id === pressed.id);
    expect(refused).toMatchObject({ type: 4, data: { content: WORDING.onlyAskerCanStop, flags: 64 } });
    expect(buttonIds(reply)).toEqual([stop]); // still going
    const admin = bed.discord.user('moderator');
    const stopped = await press(bed, reply, stop, admin, [FAKE_ROLES.manager]);
    expect(stopped.type).toBe(6);
    expect(reply.content.endsWith(WORDING.stopped)).toBe(true);
    expect(bed.discord.messages(reply.id).at(-1)?.content).toBe('-# Stopped by moderator.');
  });

  it('acts once on a double press, and says the answer is finished after the end and after a restart', async () => {
    bed = await startDiscordBed();
    bed.model.script(SLOW, { content: 'Short and done.' });
    const reply = await askSlowly(bed);
    const stop = stopId(reply);
    const first = bed.discord.pressButton({ message: reply, customId: stop, user: bed.alice });
    const second = bed.discord.pressButton({ message: reply, customId: stop, user: bed.alice });
    await bed.discord.waitForCall((c) => c.path.startsWith(`/interactions/${second.id}/`));
    await bed.settle();
    const answers = bed.discord.callbacks.filter((c) => c.id === first.id || c.id === second.id);
    expect(answers.map((c) => c.type)).toEqual([6, 4]);
    expect(answers[1]?.data).toMatchObject({ content: WORDING.answerFinished, flags: 64 });
    expect(reply.content.match(/\(stopped\)/g)).toHaveLength(1);
    expect(bed.discord.messages(reply.id).filter((m) => m.content.includes('Stopped by'))).toHaveLength(1);

    // A finished answer: its Stop (from a stale client) does nothing.
    const done = bed.replyTo(await bed.say('a short one'));
    expect(done.content).toBe('Short and done.');
    const runId = parseRunActionId(buttonIds(done)[0]!)!.runId;
    const late = await press(bed, done, runActionId('stop', runId), bed.alice);
    expect(late).toMatchObject({ type: 4, data: { content: WORDING.answerFinished, flags: 64 } });
    expect(done.content).toBe('Short and done.');

    // An answer from before a restart: its run is unknown.
    const old = await press(bed, done, runActionId('stop', 'b4restart'), bed.alice);
    expect(old.data.content).toBe(WORDING.answerFinished);
  });

  it('records 👍 / 👎 once per person and answer, and counts them in /usage for admins', async () => {
    bed = await startDiscordBed();
    bed.model.script({ content: 'Paris.' });
    const reply = bed.replyTo(await bed.say('capital of France?'));
    const [up, down] = buttonIds(reply);
    const bob = bed.discord.user('bob');
    const thanks = await press(bed, reply, up!, bed.alice);
    expect(thanks.type).toBe(5); // deferred privately, then edited
    expect(bed.discord.original(thanks.token)).toMatchObject({ content: WORDING.feedbackThanks, flags: 64 });
    await press(bed, reply, up!, bed.alice);
    await press(bed, reply, down!, bob);
    const usage = async () => {
      const token = await bed!.command('usage', { roles: [FAKE_ROLES.manager] });
      return bed!.discord.original(token)?.content ?? '';
    };
    expect(await usage()).toContain('Feedback this month: 1 👍, 1 👎');
    await press(bed, reply, down!, bed.alice); // alice changes her mind
    expect(await usage()).toContain('Feedback this month: 0 👍, 2 👎');
    // Others do not see the counts.
    const token = await bed.command('usage');
    expect(bed.discord.original(token)?.content).not.toContain('Feedback');
  });

  it('puts a Stop button on /ask answers too, from the start', async () => {
    bed = await startDiscordBed();
    bed.model.script(SLOW);
    const { token } = bed.discord.runCommand({
      name: 'ask',
      channelId: bed.discord.channelId,
      user: bed.alice,
      options: { question: 'tell me a long story' },
    });
    await waitUntil(() => bed!.discord.original(token)?.content.includes(WRITTEN.trim()) ?? false, {
      what: 'the /ask answer to stream in',
    });
    const reply = bed.discord.original(token)!;
    const ack = await press(bed, reply, stopId(reply), bed.alice);
    expect(ack.type).toBe(6);
    expect(reply.content).toBe(
      `-# alice asked: tell me a long story\n${WRITTEN.trim()}\n\n${WORDING.stopped}`,
    );
    expect(buttonIds(reply).map((id) => parseRunActionId(id)?.action)).toEqual([
      'feedback_up',
      'feedback_down',
    ]);
  });

  it('shows a reasoning model’s thinking in the steps thread, never in the answer', async () => {
    bed = await startDiscordBed();
    bed.model.script({ reasoning: 'Paris is the capital.', content: '<think>Be brief.</think>Paris.' });
    const reply = bed.replyTo(await bed.say('capital of France?'));
    expect(reply.content).toBe('Paris.');
    expect(bed.discord.messages(reply.id).map((m) => m.content)).toEqual([
      '**Thought:** Paris is the capital.\n\nBe brief.',
    ]);
  });
});
