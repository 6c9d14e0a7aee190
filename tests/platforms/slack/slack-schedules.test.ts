import { afterEach, describe, expect, it } from 'vitest';
import type { Scheduler } from '../../../src/core/schedules/create-scheduler.js';
import { aSchedule } from '../../contract/schedules-contract.js';
import { manualClock } from '../../core/schedules/scheduler-fixture.js';
import { visibleText } from '../../fakes/slack-server.js';
import {
  ADMIN,
  ALICE,
  ask,
  CHANNEL,
  mention,
  replies,
  type SlackHarness,
  startSlackHarness,
  topLevel,
} from './slack-harness.js';

describe('Slack: scheduled questions', () => {
  let h: SlackHarness;
  let clock: ReturnType<typeof manualClock>;
  let scheduler: Scheduler;
  afterEach(async () => {
    await h.close();
  });

  const start = async (env: Record<string, string> = {}) => {
    clock = manualClock(Date.UTC(2026, 11, 3, 8, 0));
    h = await startSlackHarness('http', {
      env: { DEFAULT_TIMEZONE: 'America/New_York', ...env },
      schedules: { now: clock.now },
    });
    scheduler = h.core.core.schedules!;
    scheduler.start({ slack: h.adapter.systemRuns! });
  };
  const schedule = async (text: string, user = ALICE) => {
    const before = h.slack.responses.length;
    await h.command('/schedule', text, { user });
    await h.settle();
    expect(h.slack.responses.length).toBe(before + 1);
    return String(h.slack.responses.at(-1)!.body.text);
  };
  const fire = async () => {
    const started = await scheduler.tick();
    await scheduler.idle();
    await h.settle();
    return started;
  };

  it('“remind me in 2 minutes to stretch”: scheduled by the model, fired once when the clock gets there, mentioning the asker', async () => {
    await start();
    h.model.script(
      {
        content: 'Scheduling it.',
        toolCalls: [{ name: 'schedule', arguments: { when: 'in 2 minutes', question: 'stretch' } }],
      },
      { content: 'I will remind you at 03:02.' },
    );
    await ask(h, mention('remind me in 2 minutes to stretch'));
    expect(JSON.stringify(h.model.requests[1]!.body.messages)).toMatch(
      /I will remind you \\"stretch\\" on Thu 3 Dec 2026, 03:02 \(America\/New_York, GMT-05:00\)/,
    );
    const before = topLevel(h).length;
    clock.advance(119_000);
    expect(await fire()).toBe(0);
    clock.advance(1_000);
    h.model.script({ content: 'Stand up and stretch your arms.' });
    expect(await fire()).toBe(1);
    const posted = topLevel(h).slice(before);
    expect(posted).toHaveLength(1);
    const shown = visibleText(posted[0]!);
    expect(shown).toContain(`⏰ Reminder for <@${ALICE}>: stretch`);
    expect(shown).toContain('Stand up and stretch your arms.');
    clock.advance(3_600_000);
    expect(await fire()).toBe(0);
    expect(topLevel(h).length).toBe(before + 1);
  });

  it('a reminder set in a thread comes back in that thread', async () => {
    await start();
    const threadTs = '1700000000.000100';
    h.model.script(
      {
        content: 'Scheduling it.',
        toolCalls: [{ name: 'schedule', arguments: { when: 'in 1 hour', question: 'check the deploy' } }],
      },
      { content: 'Will do.' },
    );
    await ask(h, mention('remind me in an hour to check the deploy', { threadTs }));
    clock.advance(3_600_000);
    h.model.script({ content: 'The deploy finished.' });
    expect(await fire()).toBe(1);
    const inThread = replies(h, CHANNEL, threadTs).map(visibleText).join('\n');
    expect(inThread).toContain(`⏰ Reminder for <@${ALICE}>: check the deploy`);
    expect(inThread).toContain('The deploy finished.');
  });

  it('adds, lists and cancels with /schedule; recurring ones in a channel are for admins', async () => {
    await start();
    expect(await schedule('add "0 9 * * 1-5" standup summary')).toMatch(
      /^Only admins can schedule recurring/,
    );
    const added = await schedule('add "0 9 * * 1-5" standup summary', ADMIN);
    expect(added).toMatch(
      /^Scheduled "standup summary" on "0 9 \* \* 1-5"; it runs first on Thu 3 Dec 2026, 09:00 \(America\/New_York/,
    );
    const id = /id ([a-z0-9]{8})/.exec(added)![1]!;
    expect(await schedule('add "in 3 hours" water the plants')).toMatch(
      /^I will remind you "water the plants" on Thu 3 Dec 2026, 06:00/,
    );
    const listed = await schedule('list');
    expect(listed).toContain(`${id}: "standup summary" by Ada`);
    expect(listed).toContain('"water the plants" by Alice');
    expect(await schedule(`cancel ${id}`)).toBe(
      'Only the person who made a schedule, or an admin, can cancel it.',
    );
    expect(await schedule('add tomorrow morning')).toMatch(/^Usage: \/schedule list/);
    expect(await schedule(`cancel ${id}`, ADMIN)).toBe(`Cancelled ${id}: "standup summary".`);

    // The recurring one, had it stayed, fires in the channel naming (not pinging) its creator.
    const again = await schedule('add "0 9 * * 1-5" standup summary', ADMIN);
    expect(again).toMatch(/^Scheduled/);
    clock.set(Date.UTC(2026, 11, 3, 14, 0));
    h.model.script({ content: 'Yesterday: three merges.' });
    expect(await fire()).toBe(1);
    const shown = topLevel(h).map(visibleText).join('\n');
    expect(shown).toContain('🔁 Scheduled by Ada: standup summary');
    expect(shown).toContain('Yesterday: three merges.');
  });

  it('runs a demoted admin’s recurring question as a member: users.info is asked again at each run', async () => {
    await start({ RATE_LIMIT_USER: '1/day' });
    expect(await schedule('add "0 * * * *" build status', ADMIN)).toMatch(/^Scheduled/);
    for (const reply of ['Green.', 'Still green.']) {
      clock.advance(60 * 60_000);
      h.model.script({ content: reply });
      expect(await fire()).toBe(1);
    }
    expect(topLevel(h).map(visibleText).join('\n')).toContain('Still green.');
    // No longer a workspace admin: the next run is held by the limit admins pass.
    h.slack.addUser(ADMIN, { name: 'ada', display_name: 'Ada', is_admin: false });
    const asked = h.model.requests.length;
    clock.advance(60 * 60_000);
    expect(await fire()).toBe(1);
    expect(h.model.requests.length).toBe(asked);
    expect(visibleText(topLevel(h).at(-1)!)).toMatch(/limit/);
  });

  it('pauses a schedule whose creator’s channel is now blocked, telling them privately', async () => {
    await start({ BLOCK_CHANNELS: CHANNEL });
    await h.core.store.addSchedule(
      aSchedule('blocked1', {
        key: `slack:${h.slack.team}:${CHANNEL}`,
        creator: {
          platform: 'slack',
          userId: ALICE,
          principal: `slack:${h.slack.team}:${ALICE}`,
          channelId: CHANNEL,
          dm: false,
          name: 'Alice',
        },
        nextAt: clock.now(),
      }),
      10,
    );
    const before = h.model.requests.length;
    expect(await fire()).toBe(0);
    expect(h.model.requests.length).toBe(before);
    expect(h.slack.ephemerals.at(-1)).toMatchObject({ channel: CHANNEL, user: ALICE });
    expect(String(h.slack.ephemerals.at(-1)!.text)).toMatch(
      /did not run: you can no longer ask me there, so it is paused/,
    );
    expect((await h.core.store.schedule('blocked1'))?.paused).toBe(true);
  });
});
