import { afterEach, describe, expect, it } from 'vitest';
import type { Scheduler } from '../../../src/core/schedules/create-scheduler.js';
import { COMMANDS } from '../../../src/platforms/discord/commands.js';
import { aSchedule } from '../../contract/schedules-contract.js';
import { manualClock } from '../../core/schedules/scheduler-fixture.js';
import { commandErrors, FAKE_ROLES } from '../../fakes/discord-server.js';
import { type DiscordBed, startDiscordBed } from './harness.js';

it('registers a /schedule Discord accepts', () => {
  expect(commandErrors([COMMANDS.find((c) => c.name === 'schedule')!])).toEqual({});
});

describe('Discord: scheduled questions', () => {
  let bed: DiscordBed;
  let clock: ReturnType<typeof manualClock>;
  let scheduler: Scheduler;
  afterEach(async () => {
    await bed.close();
  });

  const start = async (env: Record<string, string> = {}) => {
    clock = manualClock(Date.UTC(2026, 11, 3, 8, 0));
    bed = await startDiscordBed(
      { DEFAULT_TIMEZONE: 'Europe/Berlin', ...env },
      { schedules: { now: clock.now } },
    );
    scheduler = bed.test.core.schedules!;
    // As the root does once the platforms are up; through the bed, so a restarted adapter delivers.
    scheduler.start({
      discord: {
        deliver: (run) => bed.adapter.systemRuns!.deliver(run),
        tell: (run, text) => bed.adapter.systemRuns!.tell(run, text),
        lookUp: (whom) => bed.adapter.systemRuns!.lookUp!(whom),
      },
    });
  };
  const schedule = async (
    values: Record<string, string>,
    options: Parameters<DiscordBed['command']>[1] = {},
  ) => {
    const token = await bed.command('schedule', {
      subcommand: values.sub,
      values: withoutSub(values),
      ...options,
    });
    return bed.discord.original(token)?.content ?? '';
  };
  const fire = async () => {
    const started = await scheduler.tick();
    await scheduler.idle();
    await bed.settle();
    return started;
  };

  it('“remind me in 2 minutes to stretch”: the model schedules it, the time comes, the reminder arrives once, mentioning the asker', async () => {
    await start();
    bed.model.script(
      {
        content: 'Scheduling it.',
        toolCalls: [{ name: 'schedule', arguments: { when: 'in 2 minutes', question: 'stretch' } }],
      },
      { content: 'Done: I will remind you at 09:02. Cancel with /schedule cancel.' },
    );
    const question = await bed.say('remind me in 2 minutes to stretch');
    expect(bed.replyTo(question).content).toContain('I will remind you at 09:02');
    const observation = JSON.stringify(bed.model.requests[1]!.body.messages);
    expect(observation).toMatch(
      /I will remind you \\"stretch\\" on Thu 3 Dec 2026, 09:02 \(Europe\/Berlin, GMT\+01:00\) \(id [a-z0-9]{8}\)\. Cancel it with \/schedule cancel [a-z0-9]{8}\./,
    );

    clock.advance(60_000);
    expect(await fire()).toBe(0);
    clock.advance(60_000);
    bed.model.script({ content: 'Time to stretch! Stand up and reach for the ceiling.' });
    expect(await fire()).toBe(1);
    const reminders = bed.discord
      .messages(bed.discord.channelId)
      .filter((m) => m.content.includes('Reminder for'));
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.content).toBe(
      `-# ⏰ Reminder for <@${bed.alice.id}>: stretch\nTime to stretch! Stand up and reach for the ceiling.`,
    );
    // The reminder's first post pings the creator, and only them.
    const post = bed.discord.calls.find(
      (c) => c.method === 'POST' && String(c.body?.content ?? '').includes('Reminder for'),
    );
    expect(post?.body.allowed_mentions).toEqual({ parse: [], users: [bed.alice.id] });
    // The run was asked as alice, in the channel's memory.
    expect(JSON.stringify(bed.model.requests.at(-1)!.body.messages)).toContain('stretch');

    clock.advance(10 * 60_000);
    expect(await fire()).toBe(0);
    expect(
      bed.discord.messages(bed.discord.channelId).filter((m) => m.content.includes('Reminder for')),
    ).toHaveLength(1);
  });

  it('lists, refuses bad input in one sentence, lets only admins add recurring questions in a channel, and cancels', async () => {
    await start();
    expect(await schedule({ sub: 'list' })).toMatch(/^No scheduled questions here or of yours/);
    expect(await schedule({ sub: 'add', when: 'every tuesday', question: 'x' })).toMatch(
      /^"every tuesday" is not a time I can read/,
    );
    expect(await schedule({ sub: 'add', when: '2020-01-01T09:00', question: 'x' })).toMatch(
      /has already passed/,
    );
    expect(await schedule({ sub: 'add', when: '* * * * *', question: 'x' })).toMatch(
      /more often than once every 5 minutes/,
    );
    expect(await schedule({ sub: 'add', when: '0 9 * * 1', question: 'summarise last week' })).toMatch(
      /^Only admins can schedule recurring/,
    );
    const added = await schedule(
      { sub: 'add', when: '0 9 * * 1', question: 'summarise last week' },
      { roles: [FAKE_ROLES.manager] },
    );
    expect(added).toMatch(
      /^Scheduled "summarise last week" on "0 9 \* \* 1"; it runs first on Mon 7 Dec 2026, 09:00 \(Europe\/Berlin/,
    );
    const id = /id ([a-z0-9]{8})/.exec(added)![1]!;
    expect(await schedule({ sub: 'list' })).toContain(
      `• ${id}: "summarise last week" by alice, "0 9 * * 1", next Mon 7 Dec 2026, 09:00`,
    );
    const bob = bed.discord.user('bob');
    expect(await schedule({ sub: 'cancel', id }, { user: bob })).toBe(
      'Only the person who made a schedule, or an admin, can cancel it.',
    );
    expect(await schedule({ sub: 'cancel', id })).toBe(`Cancelled ${id}: "summarise last week".`);
    expect(await schedule({ sub: 'cancel', id })).toMatch(/^There is no schedule/);
  });

  it('keeps a reminder across a restart and fires it after', async () => {
    await start();
    const added = await schedule({ sub: 'add', when: 'in 5 minutes', question: 'check the build' });
    expect(added).toMatch(/^I will remind you "check the build" on Thu 3 Dec 2026, 09:05/);
    await scheduler.stop();
    await bed.restart();
    scheduler.start({ discord: bed.adapter.systemRuns! });
    clock.advance(5 * 60_000);
    bed.model.script({ content: 'The build is green.' });
    expect(await fire()).toBe(1);
    expect(bed.discord.messages(bed.discord.channelId).map((m) => m.content)).toContain(
      `-# ⏰ Reminder for <@${bed.alice.id}>: check the build\nThe build is green.`,
    );
  });

  it('hands the model one clear sentence for a past time or too many schedules, and keeps nothing', async () => {
    await start({ SCHEDULES_PER_PERSON: '1' });
    bed.model.script(
      {
        content: 'Scheduling.',
        toolCalls: [{ name: 'schedule', arguments: { when: '2026-12-02T09:00', question: 'x' } }],
      },
      { content: 'That time has passed.' },
    );
    await bed.say('remind me yesterday at 9');
    expect(JSON.stringify(bed.model.requests[1]!.body.messages)).toContain(
      'Wed 2 Dec 2026, 09:00 (Europe/Berlin, GMT+01:00) has already passed; it is now Thu 3 Dec 2026, 09:00 (Europe/Berlin, GMT+01:00).',
    );
    expect(await schedule({ sub: 'add', when: 'in 1 hour', question: 'first' })).toMatch(
      /^I will remind you/,
    );
    bed.model.script(
      {
        content: 'Scheduling.',
        toolCalls: [{ name: 'schedule', arguments: { when: 'in 2 hours', question: 'second' } }],
      },
      { content: 'You have too many.' },
    );
    await bed.say('remind me in 2 hours: second');
    expect(JSON.stringify(bed.model.requests[3]!.body.messages)).toContain(
      'You already have 1 schedule, the most allowed; cancel one first (/schedule list).',
    );
    expect(await schedule({ sub: 'list' })).not.toContain('second');
  });

  it('counts a scheduled run against its creator’s rate limit', async () => {
    await start({ RATE_LIMIT_USER: '1/hour' });
    expect(await schedule({ sub: 'add', when: 'in 5 minutes', question: 'check the build' })).toMatch(
      /^I will remind you/,
    );
    bed.model.script({ content: 'Hello.' });
    await bed.say('hello');
    const asked = bed.model.requests.length;
    clock.advance(5 * 60_000);
    expect(await fire()).toBe(1);
    expect(bed.model.requests.length).toBe(asked);
    const reminder = bed.discord
      .messages(bed.discord.channelId)
      .find((m) => m.content.includes('Reminder for'));
    expect(reminder?.content).toMatch(/^-# ⏰ Reminder for <@\d+>: check the build\n.*limit/s);
  });

  it('runs a demoted creator’s recurring question as a member: the limits admins pass hold it back', async () => {
    await start({ RATE_LIMIT_USER: '1/day' });
    const added = await schedule(
      { sub: 'add', when: '0 * * * *', question: 'how is the build' },
      { roles: [FAKE_ROLES.manager] },
    );
    expect(added).toMatch(/^Scheduled "how is the build"/);
    const answers = () =>
      bed.discord
        .messages(bed.discord.channelId)
        .filter((m) => m.content.startsWith('-# 🔁'))
        .map((m) => m.content.split('\n').slice(1).join('\n'));
    // Still Manage Server: past the 1/day limit, as admins are.
    for (const reply of ['Green.', 'Still green.']) {
      clock.advance(60 * 60_000);
      bed.model.script({ content: reply });
      expect(await fire()).toBe(1);
    }
    expect(answers()).toEqual(['Green.', 'Still green.']);
    // Manage Server taken away in Discord: the next run is asked as a member, whom 1/day holds back.
    bed.discord.setMember(bed.alice, []);
    const asked = bed.model.requests.length;
    clock.advance(60 * 60_000);
    expect(await fire()).toBe(1);
    expect(bed.model.requests.length).toBe(asked);
    expect(answers().at(-1)).toMatch(/limit/);
  });

  it.each([
    ['lost the role ALLOW_ROLES let them in by', { ALLOW_ROLES: FAKE_ROLES.helper }, []],
    ['left the server', {}, null],
  ] as const)('pauses a schedule whose creator %s, and tells them', async (_, env, now) => {
    await start(env);
    expect(
      await schedule(
        { sub: 'add', when: 'in 5 minutes', question: 'water the plants' },
        { roles: [FAKE_ROLES.helper] },
      ),
    ).toMatch(/^I will remind you/);
    const [id] = (await bed.test.store.schedules({ creator: `discord:${bed.alice.id}` })).map((s) => s.id);
    bed.discord.setMember(bed.alice, now);
    const asked = bed.model.requests.length;
    clock.advance(5 * 60_000);
    expect(await fire()).toBe(0);
    expect(bed.model.requests.length).toBe(asked);
    expect((await bed.test.store.schedule(id!))?.paused).toBe(true);
    expect(bed.discord.messages(bed.discord.channelId).map((m) => m.content)).toContain(
      `<@${bed.alice.id}> Your scheduled question "water the plants" (${id}) did not run: you can no longer ask me there, so it is paused. Cancel it with /schedule cancel ${id}.`,
    );
  });

  it('does not run a blocked creator’s schedule: it is paused and its creator told', async () => {
    await start({ BLOCK_USERS: 'discord:999' });
    const now = clock.now();
    await bed.test.store.addSchedule(
      aSchedule('blocked1', {
        key: `discord:${bed.discord.guildId}:${bed.discord.channelId}`,
        creator: {
          platform: 'discord',
          userId: '999',
          principal: 'discord:999',
          channelId: bed.discord.channelId,
          dm: false,
          name: 'mallory',
        },
        cron: '0 * * * *',
        nextAt: now,
      }),
      10,
    );
    const before = bed.model.requests.length;
    expect(await fire()).toBe(0);
    expect(bed.model.requests.length).toBe(before);
    const notes = bed.discord.messages(bed.discord.channelId).map((m) => m.content);
    expect(notes).toEqual([
      '<@999> Your scheduled question "stretch" (blocked1) did not run: you can no longer ask me there, so it is paused. Cancel it with /schedule cancel blocked1.',
    ]);
    expect((await bed.test.store.schedule('blocked1'))?.paused).toBe(true);
    expect(await schedule({ sub: 'list' })).toContain('(paused: its creator may no longer ask there)');
  });
});

function withoutSub(values: Record<string, string>): Record<string, string> {
  const { sub: _, ...rest } = values;
  return rest;
}
