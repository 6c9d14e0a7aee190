import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger.js';
import { type ConsoleChat, createConsoleChat } from '../../../src/platforms/console/console-chat.js';
import { manualClock } from '../../core/schedules/scheduler-fixture.js';
import { startTestCore, type TestCore } from '../../helpers/test-core.js';
import { waitUntil } from '../../helpers/wait-until.js';

describe('terminal chat: /schedule and reminders', () => {
  let test: TestCore;
  let chat: ConsoleChat;
  let input: PassThrough;
  let printed = '';
  const clock = manualClock(Date.UTC(2026, 11, 3, 8, 0));
  beforeEach(async () => {
    clock.set(Date.UTC(2026, 11, 3, 8, 0));
    test = await startTestCore({ DEFAULT_TIMEZONE: 'UTC' }, {}, { schedules: { now: clock.now } });
    input = new PassThrough();
    const output = new PassThrough();
    printed = '';
    output.on('data', (d: Buffer) => {
      printed += d.toString('utf8');
    });
    chat = createConsoleChat({
      assistant: test.core.assistant,
      input,
      output,
      tty: false,
      author: 'operator',
      logger: createLogger({ level: 'silent', secrets: [] }),
    });
    await chat.start();
    test.core.schedules!.start({ console: chat.systemRuns! });
  });
  afterEach(async () => {
    await chat.stop();
    await test.close();
  });

  const send = async (line: string, done: RegExp) => {
    const before = printed.length;
    input.write(`${line}\n`);
    await waitUntil(() => done.test(printed.slice(before)), {
      timeoutMs: 20_000,
      what: () => `the chat to print ${done} after "${line}"; it printed: ${printed.slice(before)}`,
    });
    return printed.slice(before);
  };

  it('adds a reminder, lists it, and shows it in the chat when its time comes, once', async () => {
    const added = await send('/schedule add "in 10 minutes" stretch your legs', /\n$/);
    expect(added).toMatch(
      /^I will remind you "stretch your legs" on Thu 3 Dec 2026, 08:10 \(UTC, GMT\+00:00\) \(id [a-z0-9]{8}\)\. Cancel it with \/schedule cancel [a-z0-9]{8}\.\n$/,
    );
    expect(await send('/schedule list', /\n$/)).toMatch(
      /^Scheduled here:\n• [a-z0-9]{8}: "stretch your legs" by operator, Thu 3 Dec 2026, 08:10/,
    );
    expect(await send('/schedule add "in 1 minute"', /\n$/)).toMatch(/^Usage: \/schedule/);

    clock.advance(10 * 60_000);
    test.fake.script({ content: 'Time to stretch your legs.' });
    const before = printed.length;
    expect(await test.core.schedules!.tick()).toBe(1);
    await test.core.schedules!.idle();
    expect(printed.slice(before)).toContain('⏰ Reminder for operator: stretch your legs');
    expect(printed.slice(before)).toContain('Time to stretch your legs.');
    expect(await test.core.schedules!.tick()).toBe(0);
    expect(await send('/schedule list', /\n$/)).toMatch(/^No scheduled questions/);
  });

  it('forgets what a person scheduled when they ask the bot to forget them', async () => {
    await send('/schedule add "in 10 minutes" stretch your legs', /\n$/);
    const forgotten = await send('/memory forget-me', /\n$/);
    expect(forgotten).toMatch(/^Forgotten in this channel: (.*, )?1 scheduled question[,.]/);
    expect(await send('/schedule list', /\n$/)).toMatch(/^No scheduled questions/);
    clock.advance(10 * 60_000);
    expect(await test.core.schedules!.tick()).toBe(0);
  });
});

describe('terminal chat on a terminal: a reminder between the lines typed', () => {
  let test: TestCore;
  let chat: ConsoleChat;
  let printed = '';
  /** What the terminal shows, cursor moves left out. */
  const shown = () => printed.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');
  const clock = manualClock(Date.UTC(2026, 11, 3, 8, 0));
  afterEach(async () => {
    await chat.stop();
    await test.close();
  });

  it('puts the prompt back, with what was being typed, after the reminder is written', async () => {
    test = await startTestCore({ DEFAULT_TIMEZONE: 'UTC' }, {}, { schedules: { now: clock.now } });
    const input = new PassThrough();
    const output = Object.assign(new PassThrough(), { isTTY: true, columns: 100 });
    output.on('data', (d: Buffer) => {
      printed += d.toString('utf8');
    });
    chat = createConsoleChat({
      assistant: test.core.assistant,
      input,
      output,
      tty: true,
      author: 'operator',
      logger: createLogger({ level: 'silent', secrets: [] }),
    });
    await chat.start();
    test.core.schedules!.start({ console: chat.systemRuns! });
    input.write('/schedule add "in 5 minutes" stretch\r');
    await waitUntil(() => /I will remind you "stretch"/.test(printed), { what: 'the reminder to be added' });
    await waitUntil(() => shown().endsWith('you › '), { what: 'the prompt after /schedule add' });
    // Half a question typed when the reminder comes.
    input.write('what is');
    await waitUntil(() => shown().endsWith('you › what is'), { what: 'the typed text to be echoed' });

    clock.advance(5 * 60_000);
    test.fake.script({ content: 'Time to stretch.' });
    expect(await test.core.schedules!.tick()).toBe(1);
    await test.core.schedules!.idle();
    const after = shown().slice(shown().lastIndexOf('Time to stretch.'));
    // The prompt is written again, with the half-typed question, so typing goes on where it was.
    expect(after).toMatch(/\nyou › what is$/);
  });
});
