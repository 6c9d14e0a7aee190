import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventCallback, type FakeSlack, visibleText } from '../../fakes/slack-server.js';
import {
  ADMIN,
  ALICE,
  CHANNEL,
  replies,
  type SlackHarness,
  type SlackMode,
  startSlackHarness,
} from './slack-harness.js';

const BOB = 'UBOB';
const BOT = 'UBOT';

/** The model answers every question by echoing it, so each answer names the question it answers. */
const echo = {
  fallback: (request: { body: { messages: { role: string; content: unknown }[] } }) => {
    const last = request.body.messages.filter((m) => m.role === 'user').at(-1);
    const text = typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content);
    const asked = /\[[^\]]+\] ([^\n]*)$/.exec(text)?.[1] ?? text;
    return { content: `Answer to: ${asked}` };
  },
};

/**
 * A person writes in the channel as Slack tells an app subscribed to `message.channels` and `app_mention`: the
 * message is stored (for `conversations.replies` and reactions) and a `message` event is delivered; one that
 * mentions the bot is also delivered as `app_mention` (docs.slack.dev/reference/events/app_mention: "both
 * events are sent" when an app has both subscriptions).
 */
async function say(h: SlackHarness, text: string, options: { user?: string; threadTs?: string } = {}) {
  const stored = h.slack.addMessage({
    channel: CHANNEL,
    user: options.user ?? ALICE,
    text,
    threadTs: options.threadTs,
  });
  const fields = {
    user: stored.user,
    text,
    ts: stored.ts,
    channel: CHANNEL,
    ...(options.threadTs ? { thread_ts: options.threadTs } : {}),
  };
  await h.deliver(eventCallback({ type: 'message', channel_type: 'channel', ...fields }));
  if (text.includes(`<@${BOT}>`)) await h.deliver(eventCallback({ type: 'app_mention', ...fields }));
  await h.settle();
  return stored.ts;
}

/** The questions the model was asked, in order (the asker's own words, without their thread's context). */
const asked = (h: SlackHarness) =>
  h.model.requests.map((r) => {
    const last = r.body.messages.filter((m) => m.role === 'user').at(-1);
    const text = typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content);
    return /\[[^\]]+\] ([^\n]*)$/.exec(text)?.[1] ?? text;
  });

describe.each<SlackMode>(['http', 'socket'])('slack (%s): following a thread', (mode) => {
  let h: SlackHarness;
  let dir: string | undefined;
  const start = async (
    options: { env?: Record<string, string>; slack?: FakeSlack; databaseUrl?: string } = {},
  ) => {
    h = await startSlackHarness(mode, { model: echo, ...options });
    h.slack.addUser(BOB, { name: 'bob', display_name: 'Bob' });
    return h;
  };
  afterEach(async () => {
    await h?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  /** Alice asks the bot at the top of the channel; returns the question's ts (its thread is followed). */
  const opening = async () => {
    const ts = await say(h, `<@${BOT}> what were sales in Q3?`);
    expect(asked(h)).toEqual(['what were sales in Q3?']);
    return ts;
  };

  it('answers the asker’s follow-up in the thread without a mention, with the thread as context', async () => {
    await start();
    const thread = await opening();
    await say(h, 'and for last quarter?', { threadTs: thread });
    expect(asked(h)).toEqual(['what were sales in Q3?', 'and for last quarter?']);
    // The follow-up's request carries the thread so far: the question and the bot's answer.
    const context = JSON.stringify(h.model.requests.at(-1)!.body.messages);
    expect(context).toContain('what were sales in Q3?');
    expect(replies(h, CHANNEL, thread).map(visibleText)).toContain('Answer to: and for last quarter?');
  });

  it('stands back once another person speaks: their plain message and the asker’s are left, a mention is answered', async () => {
    await start();
    const thread = await opening();
    await say(h, 'I think it was up', { user: BOB, threadTs: thread });
    await say(h, 'yes, up 5%', { threadTs: thread });
    expect(asked(h)).toEqual(['what were sales in Q3?']);
    await say(h, `<@${BOT}> can you check that?`, { user: BOB, threadTs: thread });
    expect(asked(h)).toEqual(['what were sales in Q3?', 'can you check that?']);
    // Still standing back after answering the mention.
    await say(h, 'thanks, and Q2?', { threadTs: thread });
    expect(asked(h)).toHaveLength(2);
  });

  it('leaves a message that mentions another person, and never answers in a thread it took no part in', async () => {
    await start();
    const thread = await opening();
    await say(h, `<@${BOB}> can you confirm the Q3 number?`, { threadTs: thread });
    const other = h.slack.addMessage({ channel: CHANNEL, user: ALICE, text: 'lunch?' });
    await say(h, 'and for last quarter?', { threadTs: other.ts });
    await say(h, 'a plain message at the top of the channel');
    expect(asked(h)).toEqual(['what were sales in Q3?']);
  });

  it('reacts to a thanks instead of answering it, once', async () => {
    await start();
    const thread = await opening();
    const thanks = await say(h, 'thanks!', { threadTs: thread });
    expect(asked(h)).toHaveLength(1);
    expect(h.slack.reactions).toEqual([{ channel: CHANNEL, timestamp: thanks, name: 'thumbsup' }]);
    // The same event again (a retry) adds no second reaction and still no answer.
    await h.deliver(
      eventCallback({
        type: 'message',
        channel_type: 'channel',
        user: ALICE,
        text: 'thanks!',
        ts: thanks,
        channel: CHANNEL,
        thread_ts: thread,
      }),
      { retryNum: 1 },
    );
    await h.settle();
    expect(h.slack.reactions).toHaveLength(1);
    expect(asked(h)).toHaveLength(1);
  });

  it('`/settings follow off` stops following in the channel, and /settings shows it', async () => {
    await start();
    const thread = await opening();
    const before = h.slack.responses.length;
    await h.command('/settings', 'follow off', { user: ADMIN });
    await h.slack.waitFor(() => h.slack.responses.length > before);
    const shown = JSON.stringify(h.slack.responses.at(-1));
    expect(shown).toContain('Follow threads: off');
    await say(h, 'and for last quarter?', { threadTs: thread });
    expect(asked(h)).toHaveLength(1);
    await h.command('/settings', 'follow on', { user: ADMIN });
    await h.slack.waitFor(() => h.slack.responses.length > before + 1);
    await say(h, 'and for last quarter?', { threadTs: thread });
    expect(asked(h)).toHaveLength(2);
  });

  it('FOLLOW_THREADS=false answers only mentions; FOLLOW_IDLE of silence ends following', async () => {
    await start({ env: { FOLLOW_THREADS: 'false' } });
    const thread = await opening();
    await say(h, 'and for last quarter?', { threadTs: thread });
    expect(asked(h)).toHaveLength(1);
    await h.close();

    await start({ env: { FOLLOW_IDLE: '1h' } });
    const next = await opening();
    h.advance(61 * 60_000);
    await say(h, 'and for last quarter?', { threadTs: next });
    expect(asked(h)).toHaveLength(1);
  });

  it('keeps following across a restart', async () => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-follow-'));
    const databaseUrl = `sqlite:${join(dir, 'shared.db')}`;
    await start({ databaseUrl });
    const thread = await opening();
    const slack = h.slack;
    await h.shutdown();
    const before = h;
    await start({ databaseUrl, slack });
    await say(h, 'and for last quarter?', { threadTs: thread });
    expect(asked(h)).toEqual(['and for last quarter?']);
    expect(replies(h, CHANNEL, thread).map(visibleText)).toContain('Answer to: and for last quarter?');
    await before.close();
    await slack.close();
  });
});
