import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseRunActionId } from '../../../src/platforms/shared/run-actions.js';
import { WORDING } from '../../../src/platforms/shared/wording.js';
import {
  cardsOf,
  eventCallback,
  type FakeSlackMessage,
  STREAM_LIMITS,
  taskCards,
  userTs,
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
  seen,
  startSlackHarness,
  topLevel,
} from './slack-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Slack payloads are loose JSON.
type Json = any;

// One sentence under the core's hold-back (160 characters), so it is never streamed as an answer; cut on its task card.
const LONG_THOUGHT =
  'I will use the calculator to work out 123 times 456 and then add 789, checking every figure of it once more ';
const CALCULATOR_RUN = [
  {
    content: LONG_THOUGHT,
    toolCalls: [{ name: 'calculator', arguments: { expression: '123 * 456 + 789' } }],
  },
  { content: 'The result is **56877**.' },
];

/** Every streaming call's chunks and markdown, for checks against Slack's limits. */
function streamedChunks(h: SlackHarness): Json[] {
  return h.slack.calls
    .filter((c) => c.method.endsWith('Stream'))
    .flatMap((c) => [
      ...(c.args.markdown_text ? [{ type: 'markdown_text', text: c.args.markdown_text }] : []),
      ...(c.args.chunks ?? []),
    ]);
}

/** Checks every stream call was taken and every chunk kept to Slack's limits. */
function expectWithinLimits(h: SlackHarness): void {
  const calls = h.slack.calls.filter((c) => c.method.endsWith('Stream'));
  expect(calls.length).toBeGreaterThan(0);
  expect(calls.filter((c) => !c.reply.ok)).toEqual([]);
  for (const chunk of streamedChunks(h)) {
    if (chunk.type === 'markdown_text')
      expect(chunk.text.length).toBeLessThanOrEqual(STREAM_LIMITS.markdownChars);
    for (const field of ['title', 'details', 'output'])
      expect(String(chunk[field] ?? '').length).toBeLessThanOrEqual(STREAM_LIMITS.taskFieldChars);
  }
}

describe('slack native streaming (SLACK_STREAMING=native, the default)', () => {
  let h: SlackHarness;
  const start = async (env: Record<string, string> = {}) => {
    h = await startSlackHarness('http', { env });
    return h;
  };
  afterEach(async () => {
    await h?.close();
  });

  it('replaces a thought of several sentences streamed before its tool call: the message ends as the answer alone', async () => {
    await start();
    h.model.script(
      {
        content: 'Let me see. I will check the figures with the calculator first.',
        toolCalls: [{ name: 'calculator', arguments: { expression: '123 * 456 + 789' } }],
      },
      { content: 'The result is **56877**.' },
    );
    const question = mention('what is 123 * 456 + 789?');
    await ask(h, question);
    const [answer, ...more] = replies(h, CHANNEL, question.ts);
    expect(more).toEqual([]);
    expect(visibleText(answer!)).toBe('The result is **56877**.');
    expect(answer!.stream!.tasks[0]).toMatchObject({ title: 'Thought' });
    expectWithinLimits(h);
  });

  it('streams the answer into the question’s thread, each step a task card, with feedback buttons', async () => {
    await start();
    h.model.script(...CALCULATOR_RUN);
    const question = mention('what is 123 * 456 + 789?');
    await ask(h, question);

    expect(topLevel(h)).toEqual([]); // nothing new at the top of the channel
    const [answer, ...more] = replies(h, CHANNEL, question.ts);
    expect(more).toEqual([]);
    expect(visibleText(answer!)).toBe('The result is **56877**.');
    expect(answer!.stream).toMatchObject({
      state: 'stopped',
      taskDisplayMode: 'timeline',
      recipient: { user: ALICE, team: 'T0001' },
    });
    const [thought, action] = answer!.stream!.tasks;
    expect(answer!.stream!.tasks).toHaveLength(2);
    expect(thought).toMatchObject({ title: 'Thought', status: 'complete', statuses: ['complete'] });
    expect(thought!.details).toBe(LONG_THOUGHT.trim());
    expect(action).toMatchObject({
      title: 'Action: calculator',
      details: '{"expression":"123 * 456 + 789"}',
      output: expect.stringMatching(/56,?877/),
      status: 'complete',
    });
    // In progress while the tool runs, if the stream was written before it finished (plain arithmetic is instant).
    expect(['in_progress,complete', 'complete']).toContain(action!.statuses.join());
    // The cards come before the answer's text, in the order the steps were made.
    const order = answer!.stream!.chunks.map((c: Json) => (c.type === 'task_update' ? c.id : c.type));
    expect(order.indexOf('markdown_text')).toBeGreaterThan(order.lastIndexOf(action!.id));
    expectWithinLimits(h);

    // The question's thread is an agent session: processing while the model thinks, titled after the question,
    // and active again once the stream stopped (its stop carries the status).
    expect(h.slack.agentSessions.get(CHANNEL, question.ts)).toMatchObject({
      title: 'what is 123 * 456 + 789?',
      status: 'active',
    });
    expect(h.slack.callsTo('chat.stopStream').at(-1)!.args.session_status).toBe('active');
    expect(h.slack.callsTo('assistant.threads.setStatus')).toEqual([]);
    // 👍 / 👎 at the bottom of the finished answer; the Stop button went to the asker alone.
    const feedback = answer!.stream!.finalBlocks!.find((b: Json) => b.type === 'context_actions');
    const buttons = feedback.elements[0];
    expect(buttons.type).toBe('feedback_buttons');
    const { runId } = parseRunActionId(buttons.positive_button.value)!;
    expect(parseRunActionId(buttons.positive_button.value)).toEqual({ action: 'feedback_up', runId });
    expect(parseRunActionId(buttons.negative_button.value)).toEqual({ action: 'feedback_down', runId });
    const stop = h.slack.ephemerals.at(-1);
    expect(stop).toMatchObject({ channel: CHANNEL, user: ALICE, thread_ts: question.ts });
    expect(parseRunActionId(stop.blocks[0].elements[0].action_id)).toEqual({ action: 'stop', runId });
  });

  it('shows the answer while it is still being written', async () => {
    const first = 'Streaming part one. '.repeat(10);
    const model = await startGatedModel(first, 'The end.');
    try {
      await start({ OPENAI_BASE_URL: model.url });
      const question = mention('tell me a story');
      await h.deliver(eventCallback(question));
      const live = await h.slack.waitFor(() =>
        replies(h, CHANNEL, question.ts).find((m) => m.text.startsWith('Streaming part one.')),
      );
      expect(live.stream!.state).toBe('streaming');
      expect(live.text).not.toContain('The end.');
      model.release();
      await h.settle();
      expect(visibleText(live)).toBe(`${first}The end.`);
      expect(h.slack.callsTo('chat.update')).toEqual([]);
    } finally {
      await model.close();
    }
  });

  it('shows the steps as one plan with SLACK_TASK_DISPLAY=plan', async () => {
    await start({ SLACK_TASK_DISPLAY: 'plan' });
    h.model.script(...CALCULATOR_RUN);
    const question = mention('what is 123 * 456 + 789?');
    await ask(h, question);
    const [answer] = replies(h, CHANNEL, question.ts);
    expect(answer!.stream!.taskDisplayMode).toBe('plan');
    expect(taskCards(answer!)).toContain('Action: calculator');
    // Titled while it runs, retitled once done.
    const titles = answer!
      .stream!.chunks.filter((c: Json) => c.type === 'plan_update')
      .map((c: Json) => c.title);
    expect(titles).toEqual([WORDING.thinking, 'Steps']);
  });

  it('falls back to edited messages when the workspace does not know the streaming methods, and says so once', async () => {
    await start();
    h.slack.streaming.reject = 'unknown_method';
    h.model.script(...CALCULATOR_RUN, { content: 'Second answer.' });
    const question = mention('what is 123 * 456 + 789?');
    await ask(h, question);

    // The run that met the error is still answered, in the edit layout.
    const [answer] = topLevel(h);
    expect(visibleText(answer!)).toBe('The result is *56877*.');
    expect(seen(replies(h, CHANNEL, answer!.ts))).toContain('*Action:* `calculator');
    // The next question does not try again, and the fallback is logged once.
    await ask(h, mention('and again?'));
    expect(visibleText(topLevel(h)[1]!)).toBe('Second answer.');
    expect(h.slack.callsTo('chat.startStream')).toHaveLength(1);
    const fellBack = h.logs.filter((l) => /refuses native streaming/.test(l.msg));
    expect(fellBack).toHaveLength(1);
    expect(fellBack[0]).toMatchObject({ team: 'T0001', error: 'unknown_method' });
    // The agent session of the question's thread is ready again once the answer is done elsewhere.
    expect(h.slack.agentSessions.get(CHANNEL, question.ts)!.statuses).toEqual(['processing', 'active']);
  });

  it('falls back the same way on missing_scope and not_allowed_token_type', async () => {
    for (const error of ['missing_scope', 'not_allowed_token_type']) {
      await start();
      h.slack.streaming.reject = error;
      h.model.script({ content: `Answered despite ${error}.` });
      await ask(h, mention('hello'));
      expect(topLevel(h).map(visibleText)).toEqual([`Answered despite ${error}.`]);
      await h.close();
    }
  });

  it('falls back only for the workspace that refused; others keep streaming', async () => {
    await start();
    h.slack.override(({ method, args }) =>
      method.endsWith('Stream') && args.team_id === 'T0002'
        ? { ok: false, error: 'unknown_method' }
        : undefined,
    );
    h.model.script({ content: 'Edited for T0002.' }, { content: 'Streamed for T0001.' });
    await h.deliver(eventCallback(mention('hello', { channel: 'C0002' }), { team: 'T0002' }));
    await h.settle();
    const question = mention('hello');
    await ask(h, question);
    expect(topLevel(h, 'C0002').map(visibleText)).toEqual(['Edited for T0002.']);
    const [streamed] = replies(h, CHANNEL, question.ts);
    expect(streamed!.stream!.state).toBe('stopped');
    expect(visibleText(streamed!)).toBe('Streamed for T0001.');
  });

  it('finishes a stream Slack stopped taking (message_not_in_streaming_state) with chat.update', async () => {
    await start();
    h.slack.streaming.expireAfterAppends = 0;
    h.model.script(...CALCULATOR_RUN);
    const question = mention('what is 123 * 456 + 789?');
    await ask(h, question);

    const [answer, ...more] = replies(h, CHANNEL, question.ts);
    expect(more).toEqual([]);
    expect(answer!.stream!.state).toBe('expired');
    const updates = h.slack.callsTo('chat.update');
    expect(updates.length).toBeGreaterThan(0);
    expect(updates.every((c) => c.reply.ok && c.args.ts === answer!.ts)).toBe(true);
    expect(updates.every((c) => c.args.text.length <= STREAM_LIMITS.updateTextChars)).toBe(true);
    expect(visibleText(answer!)).toBe('The result is **56877**.');
    // The edit keeps the steps, as cards, and the feedback buttons.
    expect(cardsOf(answer!)).toEqual([
      expect.objectContaining({ title: 'Thought', status: 'complete' }),
      expect.objectContaining({
        title: 'Action: calculator',
        status: 'complete',
        output: expect.stringMatching(/56,?877/),
      }),
    ]);
    expect(answer!.blocks!.some((b: Json) => b.type === 'context_actions')).toBe(true);
  });

  it('replaces text it streamed that turned out to be a thought, keeping the steps', async () => {
    await start();
    const thinking = `Let me think about this first. ${'Weighing every option. '.repeat(12)}`;
    h.model.script(
      // Past the core's hold-back, so it streams as the answer until the tool call shows it was a thought.
      { content: thinking, toolCalls: [{ name: 'calculator', arguments: { expression: '2 + 2' } }] },
      { content: 'It is 4.' },
    );
    const question = mention('what is 2 + 2?');
    await ask(h, question);
    const [answer] = replies(h, CHANNEL, question.ts);
    expect(
      answer!.stream!.chunks.some(
        (c: Json) => c.type === 'markdown_text' && c.text.startsWith('Let me think'),
      ),
    ).toBe(true);
    expect(visibleText(answer!)).toBe('It is 4.');
    expect(cardsOf(answer!).map((c) => c.title)).toEqual(['Thought', 'Action: calculator']);
    // The thought is longer than a card holds: cut, within Slack's limit.
    expect(cardsOf(answer!)[0]!.details).toMatch(/^Let me think about this first\. .*…$/);
    expectWithinLimits(h);
    expect(answer!.blocks!.some((b: Json) => b.type === 'context_actions')).toBe(true);
  });

  it('splits a long answer: the stream carries the first part, further replies the rest', async () => {
    await start();
    const paragraphs = Array.from(
      { length: 40 },
      (_, i) => `P${i + 1}: ${'lorem ipsum '.repeat(75).trim()}.`,
    );
    h.model.script({ content: paragraphs.join('\n\n') });
    const question = mention('write a lot');
    await ask(h, question);

    const messages = replies(h, CHANNEL, question.ts);
    expect(messages.length).toBeGreaterThan(2);
    expect(messages[0]!.stream!.state).toBe('stopped');
    expectWithinLimits(h);
    for (const message of messages.slice(1)) {
      expect(message.blocks!.every((b: Json) => b.type !== 'markdown' || b.text.length <= 12_000)).toBe(true);
    }
    const all = seen(messages);
    expect(all.replace(/\s+/g, ' ')).toBe(paragraphs.join(' '));
  });

  it('cuts an answer to ANSWER_MAX_MESSAGES replies, the last saying how much is shown', async () => {
    await start({ ANSWER_MAX_MESSAGES: '2', ANSWER_MAX_CHARS: '100000' });
    const paragraphs = Array.from(
      { length: 80 },
      (_, i) => `P${i + 1}: ${'lorem ipsum '.repeat(75).trim()}.`,
    );
    h.model.script({ content: paragraphs.join('\n\n') });
    const question = mention('write even more');
    await ask(h, question);
    const messages = replies(h, CHANNEL, question.ts);
    expect(messages).toHaveLength(2);
    expect(visibleText(messages[1]!)).toMatch(
      /\(cut: the answer is 72,549 characters; the first [\d,]+ are shown\)$/,
    );
  });

  it('ends a model failure with a short warning in the reply, and no feedback buttons', async () => {
    await start();
    h.model.script({ status: 400, body: { error: { message: 'context length exceeded' } } });
    const question = mention('first');
    await ask(h, question);
    const [failed] = replies(h, CHANNEL, question.ts);
    expect(visibleText(failed!)).toMatch(/^⚠️ .*model/i);
    expect(failed!.stream!.finalBlocks).toBeUndefined();
  });

  it('on shutdown, ends a stream still running with a note', async () => {
    await start({ SHUTDOWN_GRACE_MS: '50' });
    h.model.script(
      {
        content: 'Let me look.',
        toolCalls: [{ name: 'calculator', arguments: { expression: '1 + 1' } }],
      },
      { hang: true },
    );
    const question = mention('a slow question');
    await h.deliver(eventCallback(question));
    await vi.waitFor(() => expect(h.model.requests).toHaveLength(2));
    await h.adapter.stop();
    const [reply] = replies(h, CHANNEL, question.ts);
    expect(visibleText(reply!)).toBe(`⚠️ ${WORDING.restarted}`);
    expect(reply!.stream!.tasks.map((t) => t.status)).toEqual(['complete', 'complete']);
  });

  it('never lets model text ping the channel or anyone', async () => {
    await start();
    h.model.script(
      {
        content: 'Thinking about <!everyone> and @here.',
        toolCalls: [{ name: 'calculator', arguments: { expression: '1 + 1' } }],
      },
      { content: 'Attention <!channel> <!here|here> @channel @everyone <@U999> <!subteam^S123|@team>' },
    );
    const question = mention('ping everyone');
    await ask(h, question);
    const posted = JSON.stringify(
      h.slack.calls.filter((c) => c.method.startsWith('chat.')).map((c) => c.args),
    );
    expect(posted).not.toMatch(/<!|<@/);
    expect(posted).not.toMatch(/@(channel|here|everyone)/i);
    const [answer] = replies(h, CHANNEL, question.ts);
    expect(visibleText(answer!).replace(/\u200B/g, '')).toBe(
      'Attention <!channel> <!here|here> @channel @everyone <@U999> <!subteam^S123|@team>',
    );
  });

  it('answers a question asked inside a thread in that thread', async () => {
    await start();
    h.model.script({ content: 'In the thread.' });
    const parent = userTs();
    await ask(h, mention('hello', { threadTs: parent }));
    const [answer] = replies(h, CHANNEL, parent);
    expect(visibleText(answer!)).toBe('In the thread.');
    expect(answer!.stream).toBeDefined();
    // The answer came whole at the end: no Stop button was offered for it.
    expect(h.slack.ephemerals).toEqual([]);
  });
});

describe('slack native streaming: Stop, 👍 / 👎 and the steps setting', () => {
  let h: SlackHarness;
  afterEach(async () => {
    await h?.close();
  });
  const WRITTEN = 'The first part of a long answer. '.repeat(6).trim();
  /** Streams WRITTEN (past the 160 characters held back), then waits until it is stopped. */
  const SLOW = { content: `${WRITTEN} and the rest, never sent.`, pauseAt: { chars: WRITTEN.length } };
  const privateReplies = () => h.slack.responses.map((r) => r.body);

  it('stops a streaming answer when its asker presses the Stop sent to them: it ends "(stopped)" and is not remembered', async () => {
    h = await startSlackHarness('http');
    h.model.script(SLOW, { content: 'We have not talked yet.' });
    const question = mention('tell me a long story');
    await h.deliver(eventCallback(question));
    const stop: Json = await h.slack.waitFor(() =>
      h.slack.ephemerals.find((e) => e.blocks?.[0]?.type === 'actions' && e.user === ALICE),
    );
    const reply = await h.slack.waitFor(() =>
      replies(h, CHANNEL, question.ts).find((m) => visibleText(m).startsWith('The first part')),
    );
    const button = stop.blocks[0].elements[0];
    const whisper: FakeSlackMessage = {
      channel: CHANNEL,
      ts: userTs(),
      threadTs: question.ts,
      text: stop.text,
      blocks: stop.blocks,
      versions: [],
    };
    await h.press(whisper, { type: 'button', action_id: button.action_id, value: button.value });
    await h.settle();

    expect(visibleText(reply!)).toMatch(/^The first part of a long answer\./);
    expect(visibleText(reply!).endsWith(`\n\n${WORDING.stopped}`)).toBe(true);
    expect(visibleText(reply!)).not.toContain('never sent');
    expect(reply!.stream!.state).toBe('stopped');
    // Who stopped it shows as a finished task card; the stopped answer can still be rated.
    expect(reply!.stream!.tasks.at(-1)).toMatchObject({ title: 'Stopped by Alice.', status: 'complete' });
    const feedback = reply!.stream!.finalBlocks!.find((b: Json) => b.type === 'context_actions');
    expect(parseRunActionId(feedback.elements[0].positive_button.value)).toEqual({
      action: 'feedback_up',
      runId: parseRunActionId(button.action_id)!.runId,
    });
    expect(privateReplies()).toEqual([]);
    // A second press on the same Stop: the answer is finished.
    await h.press(whisper, { type: 'button', action_id: button.action_id, value: button.value });
    await h.settle();
    expect(privateReplies().map((r) => r.text)).toEqual([WORDING.answerFinished]);

    // The next question's model call carries no trace of the stopped run.
    await ask(h, mention('what did you tell me?'));
    const sent = JSON.stringify(h.model.requests[1]?.body.messages);
    expect(sent).toContain('what did you tell me?');
    expect(sent).not.toContain('tell me a long story');
    expect(sent).not.toContain('first part of a long answer');
  });

  it('stores a 👍 pressed under a streamed answer, counted in /usage for admins', async () => {
    h = await startSlackHarness('http');
    h.model.script(...CALCULATOR_RUN);
    const question = mention('what is 123 * 456 + 789?');
    await ask(h, question);
    const [answer] = replies(h, CHANNEL, question.ts);
    const feedback = answer!.stream!.finalBlocks!.find((b: Json) => b.type === 'context_actions').elements[0];
    await h.press(answer!, {
      type: 'feedback_buttons',
      action_id: feedback.action_id,
      value: feedback.positive_button.value,
    });
    await h.settle();
    expect(privateReplies().map((r) => r.text)).toEqual([WORDING.feedbackThanks]);
    await h.command('/usage', '', { user: ADMIN });
    await h.settle();
    expect(String(h.slack.responses.at(-1)?.body.text)).toContain('Feedback this month: 1 👍, 0 👎');
  });

  it('shows no task cards with `/settings steps off`, and task cards with `steps inline`', async () => {
    h = await startSlackHarness('http');
    const settings = async (text: string) => {
      const before = h.slack.responses.length;
      await h.command('/settings', text, { user: ADMIN });
      await h.slack.waitFor(() => h.slack.responses.length > before);
    };
    h.model.script(...CALCULATOR_RUN, ...CALCULATOR_RUN);
    await settings('steps off');
    const hidden = mention('what is 123 * 456 + 789?');
    await ask(h, hidden);
    const [plain] = replies(h, CHANNEL, hidden.ts);
    expect(visibleText(plain!)).toBe('The result is **56877**.');
    expect(plain!.stream!.tasks).toEqual([]);
    expect(h.model.requests).toHaveLength(2); // the tool still ran

    await settings('steps inline');
    const shown = mention('again: what is 123 * 456 + 789?');
    await ask(h, shown);
    const [carded] = replies(h, CHANNEL, shown.ts);
    expect(taskCards(carded!)).toContain('Action: calculator');
  });
});

describe('slack agent messaging (DM / agent view)', () => {
  let h: SlackHarness;
  afterEach(async () => {
    await h?.close();
  });
  const PROMPTS = 'Do some maths|What is 123 * 456 + 789?;Weather|What is the weather in Paris?';

  it('offers the suggested prompts when a thread starts and when the agent view opens', async () => {
    h = await startSlackHarness('http', { env: { SLACK_SUGGESTED_PROMPTS: PROMPTS } });
    const prompts = [
      { title: 'Do some maths', message: 'What is 123 * 456 + 789?' },
      { title: 'Weather', message: 'What is the weather in Paris?' },
    ];
    const threadTs = userTs();
    await h.deliver(
      eventCallback({
        type: 'assistant_thread_started',
        assistant_thread: { user_id: ALICE, context: {}, channel_id: 'D0001', thread_ts: threadTs },
        ts: userTs(),
      }),
    );
    await h.settle();
    await h.deliver(
      eventCallback({
        type: 'app_home_opened',
        user: ALICE,
        channel: 'D0001',
        tab: 'messages',
        ts: userTs(),
      }),
    );
    await h.settle();
    await h.deliver(
      eventCallback({ type: 'app_home_opened', user: ALICE, channel: 'D0001', tab: 'home', ts: userTs() }),
    );
    await h.settle();
    expect(h.slack.assistant.suggestedPrompts).toEqual([
      expect.objectContaining({ channel_id: 'D0001', thread_ts: threadTs, prompts }),
      expect.objectContaining({ channel_id: 'D0001', prompts }),
    ]);
    expect(h.slack.assistant.suggestedPrompts[1].thread_ts).toBeUndefined();
  });

  it('offers no prompts when none are configured', async () => {
    h = await startSlackHarness('http');
    await h.deliver(
      eventCallback({
        type: 'app_home_opened',
        user: ALICE,
        channel: 'D0001',
        tab: 'messages',
        ts: userTs(),
      }),
    );
    await h.settle();
    expect(h.slack.callsTo('assistant.threads.setSuggestedPrompts')).toEqual([]);
  });

  it('without agent sessions, titles a DM thread after its first question and shows the status while working', async () => {
    h = await startSlackHarness('http');
    h.slack.agentSessions.behaviour.refuse = 'unknown_method';
    h.model.script({ content: 'Hello Alice.' }, { content: 'Still here.' });
    const dm = directMessage('what   can you\ndo for me?');
    await ask(h, dm);
    await ask(h, { ...directMessage('and more?'), thread_ts: dm.ts });
    expect(h.slack.assistant.titles).toEqual([
      expect.objectContaining({ channel_id: 'D0001', thread_ts: dm.ts, title: 'what can you do for me?' }),
    ]);
    expect(h.slack.assistant.statuses.filter((s: Json) => s.status === WORDING.working)).toHaveLength(2);
    const answers: FakeSlackMessage[] = replies(h, 'D0001', dm.ts);
    expect(answers.map(visibleText)).toEqual(['Hello Alice.', 'Still here.']);
  });
});
