import { afterEach, describe, expect, it, vi } from 'vitest';
import { WORDING } from '../../../src/platforms/shared/wording.js';
import { STREAM_CALLS_PER_MINUTE } from '../../../src/platforms/slack/stream-budget.js';
import {
  eventCallback,
  type FakeSlackMessage,
  STREAM_LIMITS,
  taskCards,
  visibleText,
} from '../../fakes/slack-server.js';
import { startGatedModel } from './gated-model.js';
import {
  ADMIN,
  ALICE,
  ask,
  CHANNEL,
  directMessage,
  mention,
  replies,
  type SlackHarness,
  startSlackHarness,
  topLevel,
} from './slack-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Slack payloads are loose JSON.
type Json = any;

const hasFeedback = (m: FakeSlackMessage) =>
  [...(m.stream?.finalBlocks ?? []), ...(m.blocks ?? [])].some((b: Json) => b.type === 'context_actions');
const streamCalls = (h: SlackHarness) => h.slack.calls.filter((c) => c.method.endsWith('Stream'));

describe('slack native streaming within Slack’s limits', () => {
  let h: SlackHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('answers a burst of 60 questions in one minute in one workspace: all complete, none left streaming, all rateable, no 429', async () => {
    h = await startSlackHarness('http', { env: { RATE_LIMIT_USER: '1000/hour' } });
    const count = 60;
    h.model.script(...Array.from({ length: count }, (_, i) => ({ content: `Answer number ${i}.` })));
    const questions = Array.from({ length: count }, (_, i) =>
      mention(`question ${i}`, { channel: `C${String(1000 + i)}` }),
    );
    await Promise.all(questions.map((q) => h.deliver(eventCallback(q))));
    await h.settle();

    const answers = questions.map((q) => {
      const native = replies(h, q.channel, q.ts);
      return native.length > 0 ? native : topLevel(h, q.channel);
    });
    for (const [i, shown] of answers.entries()) {
      expect(shown).toHaveLength(1);
      expect(visibleText(shown[0]!)).toContain(`Answer number`);
      expect(hasFeedback(shown[0]!)).toBe(true);
      expect(i).toBeGreaterThanOrEqual(0);
    }
    expect(h.slack.messages.filter((m) => m.stream?.state === 'streaming')).toEqual([]);
    const streamed = answers.filter((a) => a[0]!.stream).length;
    expect(streamed).toBe(STREAM_CALLS_PER_MINUTE.stop);
    expect(h.slack.calls.filter((c) => c.status === 429)).toEqual([]);
    expect(h.rateLimits).toEqual([]);
    const starts = h.slack.callsTo('chat.startStream').length;
    const stops = h.slack.callsTo('chat.stopStream').length;
    expect(starts).toBeLessThanOrEqual(STREAM_LIMITS.perMinute['chat.startStream']!);
    expect(stops).toBe(starts);
    // Nothing was logged for the questions answered with edits.
    expect(h.logs.filter((l) => l.level >= 40)).toEqual([]);
    console.info(
      `burst: ${count} questions, ${streamed} streamed, ${count - streamed} edited; ${h.slack.calls.length} Slack calls (${starts} startStream, ${h.slack.callsTo('chat.appendStream').length} appendStream, ${stops} stopStream), ${h.slack.calls.filter((c) => c.status === 429).length} answered 429`,
    );

    // A minute later the workspace streams again.
    h.advance(61_000);
    h.model.script({ content: 'Streamed again.' });
    const later = mention('one more');
    await ask(h, later);
    expect(replies(h, CHANNEL, later.ts)[0]!.stream!.state).toBe('stopped');
  });

  it("stops the run when someone presses Slack's own stop (agent_session_stopped): the steps say who, the run ends in a new message", async () => {
    const written = 'The first part of a long answer. '.repeat(6);
    const model = await startGatedModel(written, 'and the rest, never sent.');
    try {
      h = await startSlackHarness('http', { env: { OPENAI_BASE_URL: model.url } });
      const question = mention('tell me a long story');
      await h.deliver(eventCallback(question));
      const reply = await h.slack.waitFor(() =>
        replies(h, CHANNEL, question.ts).find((m) => m.text.startsWith('The first part')),
      );
      await h.deliver(h.slack.pressStop(reply.ts, ADMIN));
      await h.settle();
      model.release();

      expect(reply.stream!.state).toBe('stopped_by_user');
      const [, followUp, ...more] = replies(h, CHANNEL, question.ts);
      expect(more).toEqual([]);
      expect(taskCards(followUp!)).toContain('Stopped by Ada.');
      expect(visibleText(followUp!)).toBe(WORDING.stopped);
      expect(hasFeedback(followUp!)).toBe(true);
      // Nothing more was sent to the stopped stream, and it was not rewritten.
      expect(streamCalls(h).filter((c) => !c.reply.ok)).toEqual([]);
      expect(h.slack.callsTo('chat.update').filter((c) => c.args.ts === reply.ts)).toEqual([]);
      expect(visibleText(reply)).not.toContain('never sent');
    } finally {
      await model.close();
    }
  });

  it('stops the run when an append answers stopped_by_user (no event came), naming the asker', async () => {
    h = await startSlackHarness('http');
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    h.model.script(
      { content: 'Let me look.', toolCalls: [{ name: 'calculator', arguments: { expression: '1 + 1' } }] },
      // Held until the test pressed Slack's stop, then it writes on until the bot hangs up.
      { content: 'The answer goes on and on. '.repeat(40), until: gate, pauseAt: { chars: 601 } },
    );
    const question = mention('a long question');
    await h.deliver(eventCallback(question));
    await vi.waitFor(() => expect(h.model.requests).toHaveLength(2));
    const [reply] = replies(h, CHANNEL, question.ts);
    h.slack.pressStop(reply!.ts, ALICE); // the event is not delivered: only the stream's calls tell
    open();
    await h.settle();

    const [, followUp, ...more] = replies(h, CHANNEL, question.ts);
    expect(more).toEqual([]);
    expect(taskCards(followUp!)).toContain('Stopped by Alice.');
    expect(visibleText(followUp!).endsWith(WORDING.stopped)).toBe(true);
    expect(hasFeedback(followUp!)).toBe(true);
    expect(
      h.slack.callsTo('chat.appendStream').filter((c) => c.reply.error === 'stopped_by_user'),
    ).toHaveLength(1);
    expect(h.slack.callsTo('chat.stopStream')).toEqual([]);
    expect(h.slack.callsTo('chat.update').filter((c) => c.args.ts === reply!.ts)).toEqual([]);
  });

  it('stops a stream at its age limit with chat.stopStream, and goes on in a new message', async () => {
    h = await startSlackHarness('http');
    const gates = [0, 1].map(() => {
      let open: () => void = () => {};
      const opened = new Promise<void>((resolve) => {
        open = resolve;
      });
      return { open: () => open(), opened };
    });
    const answer = Array.from({ length: 60 }, (_, i) => `Sentence ${i} of a slow answer.`).join(' ');
    h.model.script(
      { content: 'Let me look.', toolCalls: [{ name: 'calculator', arguments: { expression: '1 + 1' } }] },
      // Held until the stream is old; then part of it, and the rest once the test saw the follow-up.
      { content: answer, until: gates[0]!.opened, pauseAt: { chars: 601, until: gates[1]!.opened } },
    );
    const question = mention('a slow question');
    await h.deliver(eventCallback(question));
    await vi.waitFor(() => expect(h.model.requests).toHaveLength(2));
    const [live] = replies(h, CHANNEL, question.ts);
    h.advance(4.5 * 60_000 + 1);
    gates[0]!.open();
    const followUp = await h.slack.waitFor(() => replies(h, CHANNEL, question.ts)[1]);
    expect(live!.stream!.state).toBe('stopped'); // stopped by the bot, before Slack's five minutes
    gates[1]!.open();
    await h.settle();

    expect(replies(h, CHANNEL, question.ts)).toHaveLength(2);
    expect(h.slack.updatesWhileStreaming).toEqual([]);
    expect(streamCalls(h).filter((c) => !c.reply.ok)).toEqual([]);
    // The follow-up goes on where the stopped stream ended, between two words: nothing lost, nothing said
    // twice, no word cut in two. Where exactly depends on how the model's pieces were batched at the stop
    // (under load, up to the model's pause mid-sentence), so only the word boundary is promised.
    const words = (text: string) => text.replace(/\s+/g, ' ').trim();
    expect(words(`${visibleText(live!)} ${visibleText(followUp)}`)).toBe(answer);
    expect(visibleText(followUp)).toMatch(/^\S/);
    expect(hasFeedback(followUp)).toBe(true);
    expect(hasFeedback(live!)).toBe(false);
  });

  it('finishes in a new message when Slack answers message_not_owned_by_app', async () => {
    const first = 'Streaming part one. '.repeat(10);
    const model = await startGatedModel(first, 'The end.');
    try {
      h = await startSlackHarness('http', { env: { OPENAI_BASE_URL: model.url } });
      const question = mention('tell me a story');
      await h.deliver(eventCallback(question));
      const live = await h.slack.waitFor(() =>
        replies(h, CHANNEL, question.ts).find((m) => m.text.startsWith('Streaming part one.')),
      );
      h.slack.disown(live.ts);
      model.release();
      await h.settle();
      const [, followUp] = replies(h, CHANNEL, question.ts);
      expect(visibleText(followUp!)).toBe('The end.');
      expect(hasFeedback(followUp!)).toBe(true);
    } finally {
      await model.close();
    }
  });

  it('falls back for a kind of conversation Slack refuses (channel_type_not_supported), remembered per workspace', async () => {
    h = await startSlackHarness('http');
    h.slack.override(({ method, args }) =>
      method === 'chat.startStream' && String(args.channel).startsWith('G')
        ? { ok: false, error: 'channel_type_not_supported' }
        : undefined,
    );
    h.model.script({ content: 'First.' }, { content: 'Second.' }, { content: 'In a DM.' });
    await ask(h, mention('one', { channel: 'G0001' }));
    await ask(h, mention('two', { channel: 'G0002' }));
    const dm = directMessage('three');
    await ask(h, dm);
    expect(topLevel(h, 'G0001').map(visibleText)).toEqual(['First.']);
    expect(topLevel(h, 'G0002').map(visibleText)).toEqual(['Second.']);
    expect(h.slack.callsTo('chat.startStream').map((c) => c.args.channel)).toEqual(['G0001', 'D0001']);
    expect(replies(h, 'D0001', dm.ts)[0]!.stream!.state).toBe('stopped');
    expect(h.logs.filter((l) => /refuses native streaming/.test(l.msg))).toHaveLength(1);
  });

  it("streams to the asker's own team (recipient_team_id), not the installing workspace's", async () => {
    h = await startSlackHarness('http');
    h.model.script({ content: 'Hello guest.' });
    const question = { ...mention('hello'), user_team: 'TGUEST' };
    await ask(h, question);
    expect(h.slack.callsTo('chat.startStream')[0]!.args).toMatchObject({
      recipient_user_id: ALICE,
      recipient_team_id: 'TGUEST',
    });
  });

  it('opens the 👎 modal before the vote is written', async () => {
    h = await startSlackHarness('http');
    h.model.script({ content: 'Rate me.' });
    const question = mention('hello');
    await ask(h, question);
    const [answer] = replies(h, CHANNEL, question.ts);
    const buttons = answer!.stream!.finalBlocks!.find((b: Json) => b.type === 'context_actions').elements[0];
    let writesAtOpen: number | undefined;
    h.slack.override(({ method }) => {
      if (method === 'views.open') writesAtOpen = h.feedbackWrites.length;
      return undefined;
    });
    await h.press(answer!, {
      type: 'feedback_buttons',
      action_id: buttons.action_id,
      value: buttons.negative_button.value,
    });
    await h.settle();
    await vi.waitFor(() => expect(h.slack.callsTo('views.open')).toHaveLength(1));
    expect(writesAtOpen).toBe(0); // Slack's trigger_id lives 3 s: nothing was written before the modal opened
    expect(h.feedbackWrites).toEqual([expect.objectContaining({ vote: 'down' })]);
    expect(h.slack.responses.map((r) => r.body.text)).toEqual([WORDING.feedbackThanks]);
  });
});
