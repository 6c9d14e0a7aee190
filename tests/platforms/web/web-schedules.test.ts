import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WebRun } from '../../../src/platforms/web/web-run.js';
import { manualClock } from '../../core/schedules/scheduler-fixture.js';
import { startWebBed, TOKEN, type WebBed, WebUser } from './web-harness.js';

describe('web chat: /schedule and reminders', () => {
  let bed: WebBed | undefined;
  const users: WebUser[] = [];
  afterEach(async () => {
    for (const u of users.splice(0)) u.close();
    await bed?.close();
    bed = undefined;
  });
  const browser = (url: string) => {
    const user = new WebUser(url);
    users.push(user);
    return user;
  };

  it('adds, lists and cancels through the assistant, with one sentence for bad input', async () => {
    bed = await startWebBed({}, {}, { schedules: true });
    bed.test.core.schedules!.start({ web: bed.adapter.systemRuns! });
    const user = browser(bed.url);
    expect(await user.command('/schedule')).toMatch(/^No scheduled questions here or of yours/);
    expect(await user.command('/schedule add "next tuesday" x')).toMatch(/is not a time I can read/);
    const added = await user.command('/schedule add "in 1 hour" water the plants');
    const id = /id ([a-z0-9]{8})/.exec(added)?.[1];
    // A browser that did not sign in is named by the start of its ID, never by the whole of it.
    expect(await user.command('/schedule list')).toMatch(
      new RegExp(`${id}: "water the plants" by browser [\\w-]{4}, `),
    );
    expect(await user.command('/schedule cancel nosuchid')).toBe(
      'There is no schedule "nosuchid"; /schedule list shows their ids.',
    );
    expect(await user.command(`/schedule cancel ${id}`)).toBe(`Cancelled ${id}: "water the plants".`);
    expect(await user.command('/schedule frobnicate')).toMatch(/^Usage: \/schedule list/);
    expect(await user.command('/help')).toContain('/schedule list|cancel <id>');
  });

  it('counts the address of token browsers: fresh cookies from one address cannot pass SCHEDULES_PER_PERSON', async () => {
    bed = await startWebBed(
      { WEB_CHAT_TOKEN: TOKEN, SCHEDULES_PER_PERSON: '3', WEB_TRUST_PROXY: 'true' },
      {},
      { schedules: true },
    );
    bed.test.core.schedules!.start({ web: bed.adapter.systemRuns! });
    // Each visit is a new browser (no cookies) that gives the token, as a script shedding cookies would.
    const freshBrowser = async (from: string) => {
      const user = browser(bed!.url);
      user.client.sendHeaders['x-forwarded-for'] = from;
      expect((await user.client.request('/api/login', { token: TOKEN })).status).toBe(204);
      return user;
    };
    const replies: string[] = [];
    for (let i = 0; i < 5; i++) {
      const user = await freshBrowser('203.0.113.7');
      replies.push(await user.command(`/schedule add "0 9 * * *" standup ${i}`));
    }
    expect(replies.filter((r) => r.startsWith('Scheduled "standup'))).toHaveLength(3);
    expect(replies.slice(3)).toEqual([
      'Your network address already has 3 schedules, the most one person may have; cancel one (/schedule list in the browser that made it) before adding another.',
      'Your network address already has 3 schedules, the most one person may have; cancel one (/schedule list in the browser that made it) before adding another.',
    ]);
    // Someone at another address is not held back by it; one browser's own limit reads as before.
    const elsewhere = await freshBrowser('198.51.100.9');
    for (let i = 0; i < 3; i++) {
      expect(await elsewhere.command(`/schedule add "0 9 * * *" water ${i}`)).toMatch(/^Scheduled "water/);
    }
    expect(await elsewhere.command('/schedule add "0 9 * * *" water 4')).toBe(
      'You already have 3 schedules, the most allowed; cancel one first (/schedule list).',
    );
    expect(await bed.test.store.allSchedules()).toHaveLength(6);
  });

  it('shows a reminder live in the open chat when its time comes, and keeps it in the chat’s history', async () => {
    const clock = manualClock(Date.UTC(2026, 11, 3, 8, 0));
    bed = await startWebBed({ DEFAULT_TIMEZONE: 'UTC' }, {}, { schedules: true, now: clock.now });
    const scheduler = bed.test.core.schedules!;
    scheduler.start({ web: bed.adapter.systemRuns! });
    const user = browser(bed.url);
    expect(await user.command('/schedule add "in 5 minutes" stretch')).toMatch(
      /^I will remind you "stretch" on Thu 3 Dec 2026, 08:05 \(UTC/,
    );
    const feed = await user.stream();
    const from = feed.events.length;
    clock.advance(5 * 60_000);
    bed.test.fake.script({ content: 'Time to stretch.' });
    expect(await scheduler.tick()).toBe(1);
    await scheduler.idle();
    const shown = await feed.next((e) => e.event === 'run' && (e.data as WebRun).phase === 'final', from);
    expect(shown.data).toMatchObject({
      question: '⏰ Reminder for you: stretch',
      answer: 'Time to stretch.',
    });
    expect(await scheduler.tick()).toBe(0);
    // The admin page's log of the run says a schedule asked it.
    const store = bed.test.store;
    const first = await vi.waitFor(async () => {
      const [listed] = await store.listRuns({ since: 0, until: Number.MAX_SAFE_INTEGER, limit: 1 });
      const step = listed && (await store.runDetail(listed.id))?.log?.steps[0];
      if (!step) throw new Error('no run log yet');
      return step;
    });
    expect(first).toMatchObject({
      kind: 'notice',
      code: 'scheduled',
      text: expect.stringMatching(/^Asked by the schedule [a-z0-9]{8}, as its creator\.$/),
    });

    // A page opened later finds it in the conversation.
    const later = browser(bed.url);
    for (const [k, v] of user.client.cookies) later.client.cookies.set(k, v);
    const reopened = await later.stream();
    const conversation = await reopened.next((e) => e.event === 'conversation');
    expect(JSON.stringify(conversation.data)).toContain('Time to stretch.');
  });
});
