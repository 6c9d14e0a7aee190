import { afterEach, describe, expect, it } from 'vitest';
import { parseRunActionId } from '../../../src/platforms/shared/run-actions.js';
import { eventCallback, userTs, visibleText } from '../../fakes/slack-server.js';
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
  type SlackMode,
  seen,
  startSlackHarness,
  topLevel,
} from './slack-harness.js';

const CALCULATOR_RUN = [
  {
    content: 'I will use the calculator.',
    toolCalls: [{ name: 'calculator', arguments: { expression: '123 * 456 + 789' } }],
  },
  { content: 'The result is **56877**.' },
];

/** The last user message the model received. */
const lastQuestion = (h: SlackHarness, request = -1) =>
  h.model.requests
    .at(request)!
    .body.messages.filter((m) => m.role === 'user')
    .at(-1)!.content;

// These show the edit layout (an answer message edited as it streams, steps in its thread); native streaming
// has its own tests in slack-native.test.ts.
describe.each<SlackMode>(['http', 'socket'])('slack adapter (%s mode, SLACK_STREAMING=edit)', (mode) => {
  let h: SlackHarness;
  const start = async (options?: Parameters<typeof startSlackHarness>[1]) => {
    h = await startSlackHarness(mode, { ...options, env: { SLACK_STREAMING: 'edit', ...options?.env } });
    return h;
  };
  afterEach(async () => {
    await h?.close();
  });

  it('answers a mention in one channel message and puts each step in its thread', async () => {
    await start();
    h.model.script(...CALCULATOR_RUN);
    const delivered = await ask(h, mention('what is 123 * 456 + 789?'));
    expect(delivered.status).toBe(200);

    const [answer, ...others] = topLevel(h);
    expect(others).toEqual([]); // the steps are not in the channel
    expect(visibleText(answer!.versions[0]!)).toBe('_Thinking…_');
    expect(visibleText(answer!)).toBe('The result is *56877*.');
    expect(answer!.text).toBe('The result is *56877*.'); // fallback for notifications

    expect(replies(h, CHANNEL, answer!.ts).map(visibleText)).toEqual([
      '*Thought:* I will use the calculator.',
      '*Action:* `calculator {"expression":"123 * 456 + 789"}`',
      expect.stringMatching(/^\*Observation:\*\n> .*56,?877/),
    ]);
    // The bot's mention is stripped and the asker is named by display name.
    expect(lastQuestion(h, 0)).toBe('[Alice] what is 123 * 456 + 789?');
  });

  it('shows a Stop button while answering, and 👍 / 👎 under the finished answer', async () => {
    await start();
    h.model.script(...CALCULATOR_RUN, {
      status: 400,
      body: { error: { message: 'context length exceeded' } },
    });
    const question = mention('what is 123 * 456 + 789?');
    await ask(h, question);
    const [answer] = topLevel(h);
    const stop = answer!.versions[0]!.blocks!.find((b: { type: string }) => b.type === 'actions');
    const { action, runId } = parseRunActionId(stop.elements[0].action_id)!;
    expect(action).toBe('stop');
    // The finished answer has no Stop button any more, but the feedback buttons.
    expect(answer!.blocks!.map((b: { type: string }) => b.type)).toEqual(['section', 'context_actions']);
    const feedback = answer!.blocks![1].elements[0];
    expect(parseRunActionId(feedback.positive_button.value)).toEqual({ action: 'feedback_up', runId });
    expect(parseRunActionId(feedback.negative_button.value)).toEqual({ action: 'feedback_down', runId });

    // A failure ends with neither.
    await ask(h, mention('again'));
    expect(topLevel(h)[1]!.blocks!.map((b: { type: string }) => b.type)).toEqual(['section']);
  });

  it('shows the answer while it streams, by editing the answer message', async () => {
    const first = 'Streaming part one. '.repeat(10); // past the core's hold-back for thoughts
    const model = await startGatedModel(first, 'The end.');
    try {
      await start({ env: { OPENAI_BASE_URL: model.url } });
      await h.deliver(eventCallback(mention('tell me a story')));
      // Part of the answer is on screen while the model still holds back the rest.
      await h.slack.waitFor(() => topLevel(h).some((m) => visibleText(m).startsWith('Streaming part one.')));
      expect(visibleText(topLevel(h)[0]!)).not.toContain('The end.');
      model.release();
      await h.settle();
      const [answer] = topLevel(h);
      expect(visibleText(answer!)).toBe(`${first}The end.`);
      expect(h.slack.callsTo('chat.update').length).toBeGreaterThanOrEqual(2);
    } finally {
      await model.close();
    }
  });

  it('answers a mention inside a thread in that thread, with the steps in one edited message', async () => {
    await start();
    h.model.script(...CALCULATOR_RUN, { content: 'Nothing from that thread.' });
    const parent = userTs();
    await ask(h, mention('what is 123 * 456 + 789?', { threadTs: parent }));

    expect(topLevel(h)).toEqual([]);
    const [answer, steps, ...more] = replies(h, CHANNEL, parent);
    expect(more).toEqual([]);
    expect(visibleText(answer!)).toBe('The result is *56877*.');
    expect(visibleText(steps!)).toMatch(
      /^\*Thought:\* I will use the calculator\.\n\*Action:\* `calculator .*`\n\*Observation:\*\n> .*56,?877/,
    );
    // Posted with the first step, edited as the others arrived.
    expect(visibleText(steps!.versions[0]!)).not.toContain('Observation');

    // A thread is its own conversation: the channel does not remember it.
    await ask(h, mention('what did I ask?'));
    expect(JSON.stringify(h.model.requests.at(-1)!.body.messages)).not.toContain('123 * 456');
  });

  it('acks /ask at once, then answers in the channel under the question', async () => {
    await start();
    h.model.script(...CALCULATOR_RUN);
    const delivered = await h.command('/ask', 'what is 123 * 456 + 789?');
    expect(delivered.status).toBe(200);
    expect(delivered.ack?.text).toBeUndefined(); // no usage error, nothing shown privately
    await h.settle();

    const [answer, ...others] = topLevel(h);
    expect(others).toEqual([]);
    expect(visibleText(answer!)).toBe('<@UALICE> asked: what is 123 * 456 + 789?\nThe result is *56877*.');
    expect(seen(replies(h, CHANNEL, answer!.ts))).toContain('*Action:* `calculator');
    expect(lastQuestion(h)).toBe('[Alice] what is 123 * 456 + 789?');
  });

  it('acknowledges mentions and /ask before any answer exists', async () => {
    await start({ env: { SHUTDOWN_GRACE_MS: '50' } }); // the runs below never finish; stop() cancels them
    h.model.script({ hang: true }, { hang: true });
    // Were the ack to wait for the run, these would never return: the model never answers.
    expect((await h.deliver(eventCallback(mention('a slow question')))).status).toBe(200);
    expect((await h.command('/ask', 'another slow one', { channel: 'C0002' })).status).toBe(200);
  });

  it('answers /reset and /memory only to the caller', async () => {
    await start();
    h.model.script({ content: 'Noted.' });
    await ask(h, mention('remember 42'));
    const posts = h.slack.callsTo('chat.postMessage').length;

    const memory = async () => {
      await h.command('/memory', '');
      await h.settle();
      return h.slack.responses.at(-1)!.body;
    };
    expect(await memory()).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringContaining('Turns kept verbatim: 1'),
    });
    await h.command('/reset', '');
    await h.settle();
    expect(h.slack.responses.at(-1)!.body).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringMatching(/forgotten/),
    });
    expect((await memory()).text).toContain('Turns kept verbatim: 0');
    expect(h.slack.callsTo('chat.postMessage').length).toBe(posts); // nothing in the channel
  });

  it('answers any direct message without a mention, but no unaddressed channel message', async () => {
    await start();
    h.model.script({ content: 'Hello Alice.' });
    await ask(h, {
      type: 'message',
      channel_type: 'channel',
      channel: CHANNEL,
      user: ALICE,
      text: 'chatting',
      ts: userTs(),
    });
    expect(h.model.requests).toHaveLength(0);

    await ask(h, directMessage('hello there'));
    expect(seen(topLevel(h, 'D0001'))).toBe('Hello Alice.');
    expect(lastQuestion(h)).toBe('[Alice] hello there');
  });

  it('answers an event once, even when Slack retries it while it is being handled', async () => {
    await start();
    h.model.script({ content: 'Only once.', delayMs: 200 });
    const body = eventCallback(mention('hello'));
    await h.deliver(body);
    await h.slack.waitFor(() => topLevel(h).length === 1); // the run is under way
    const retry = await h.deliver(body, { retryNum: 1 });
    expect(retry.status).toBe(200); // acked, so Slack stops retrying
    await h.settle();
    const late = await h.deliver(body, { retryNum: 2 });
    expect(late.status).toBe(200);
    await h.settle();

    expect(h.model.requests).toHaveLength(1);
    expect(topLevel(h).map(visibleText)).toEqual(['Only once.']);
  });

  it('ignores bots (itself included), edits and other message subtypes', async () => {
    await start();
    const ignored = [
      { ...mention('from a bot'), bot_id: 'BOTHER' },
      { ...mention('edited'), edited: { user: ALICE, ts: userTs() } },
      { ...directMessage('from another bot'), bot_id: 'BOTHER', user: 'UOTHERBOT' },
      { ...directMessage('from myself'), user: 'UBOT', bot_id: 'BBOT' },
      { ...directMessage('changed'), subtype: 'message_changed' },
      { ...directMessage('joined'), subtype: 'channel_join' },
    ];
    for (const event of ignored) await ask(h, event);
    expect(h.model.requests).toHaveLength(0);
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
  });

  it('answers a direct message that has a file attached (subtype file_share)', async () => {
    await start();
    h.model.script({ content: 'Got it.' });
    await ask(h, { ...directMessage('what is in this screenshot?'), subtype: 'file_share' });
    expect(h.model.requests).toHaveLength(1);
    expect(JSON.stringify(h.model.requests[0]!.body.messages)).toContain('what is in this screenshot?');
  });

  it('converts the model’s Markdown to Slack mrkdwn', async () => {
    await start();
    h.model.script({
      content: [
        '## Summary',
        'This is **bold**, *italic*, ~~struck~~ and `code`, see [the docs](https://example.com/a?b=1&c=2).',
        '- first',
        '- second',
        '```ts',
        'if (a < b && c) {}',
        '```',
      ].join('\n'),
    });
    await ask(h, mention('format please'));
    expect(topLevel(h)[0]!.text).toBe(
      [
        '*Summary*',
        'This is *bold*, _italic_, ~struck~ and `code`, see <https://example.com/a?b=1&amp;c=2|the docs>.',
        '• first',
        '• second',
        '```',
        'if (a &lt; b &amp;&amp; c) {}',
        '```',
      ].join('\n'),
    );
  });

  it('splits a long answer into several messages within Slack’s limits', async () => {
    await start();
    const paragraphs = Array.from(
      { length: 40 },
      (_, i) => `P${i + 1}: ${'lorem ipsum '.repeat(75).trim()}.`,
    );
    h.model.script({ content: paragraphs.join('\n\n') });
    await ask(h, mention('write a lot'));

    const messages = topLevel(h);
    expect(messages.length).toBeGreaterThan(1);
    expect(visibleText(messages[0]!.versions[0]!)).toBe('_Thinking…_'); // the first part is the edited placeholder
    for (const message of messages) {
      expect(message.blocks!.length).toBeLessThanOrEqual(50);
      expect(message.text.length).toBeLessThanOrEqual(40_000);
      for (const block of message.blocks!.filter((b: { type: string }) => b.type === 'section'))
        expect(block.text.text.length).toBeLessThanOrEqual(3000);
    }
    const all = seen(messages);
    const order = paragraphs.map((p) => all.indexOf(p.slice(0, 8)));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(all.replace(/\s+/g, ' ')).toBe(paragraphs.join(' '));
  });

  it('cuts an answer to ANSWER_MAX_MESSAGES messages, the last saying how much is shown', async () => {
    await start({ env: { ANSWER_MAX_MESSAGES: '2', ANSWER_MAX_CHARS: '100000' } });
    const paragraphs = Array.from(
      { length: 80 },
      (_, i) => `P${i + 1}: ${'lorem ipsum '.repeat(75).trim()}.`,
    );
    h.model.script({ content: paragraphs.join('\n\n') });
    await ask(h, mention('write even more'));
    const messages = topLevel(h);
    expect(messages).toHaveLength(2);
    expect(visibleText(messages[1]!)).toMatch(
      /\(cut: the answer is 72,549 characters; the first 21,\d{3} are shown\)$/,
    );
    expect(seen(messages)).toContain('P1: lorem');
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
    await ask(h, mention('ping everyone'));

    const posted = JSON.stringify(
      h.slack.calls.filter((c) => c.method.startsWith('chat.')).map((c) => c.args),
    );
    expect(posted).not.toMatch(/<!|<@/); // no Slack mention markup at all
    expect(posted).not.toMatch(/@(channel|here|everyone)/i); // plain broadcasts are broken up
    // People still read what the model wrote.
    expect(visibleText(topLevel(h)[0]!).replace(/\u200B/g, '')).toBe(
      'Attention <!channel> <!here|here> @channel @everyone <@U999> <!subteam^S123|@team>',
    );
  });

  it('ends a model failure with a short message where the answer would be, and keeps going', async () => {
    await start();
    h.model.script(
      { status: 400, body: { error: { message: 'context length exceeded' } } },
      { content: 'Back.' },
    );
    await ask(h, mention('first'));
    const [failed] = topLevel(h);
    expect(visibleText(failed!)).toMatch(/^:warning: .*model/i);
    expect(visibleText(failed!).length).toBeLessThan(300);
    expect(replies(h, CHANNEL, failed!.ts)).toEqual([]);

    await ask(h, mention('second'));
    expect(visibleText(topLevel(h)[1]!)).toBe('Back.');
  });

  it('tells the asker privately when /ask cannot post in the channel', async () => {
    await start();
    h.slack.override(({ method, args }) =>
      method === 'chat.postMessage' && args.channel === 'CNOTIN'
        ? { ok: false, error: 'not_in_channel' }
        : undefined,
    );
    h.model.script({ content: 'Unseen.' });
    await h.command('/ask', 'hello?', { channel: 'CNOTIN' });
    await h.settle();
    expect(h.slack.responses.at(-1)!.body).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringContaining('/invite'),
    });
  });

  it('is ready on the shared HTTP server once connected, and not ready once stopped', async () => {
    await start();
    expect((await fetch(`${h.httpUrl}/healthz`)).status).toBe(200);
    const ready = await fetch(`${h.httpUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', checks: { slack: 'ok' } });
    await h.adapter.stop();
    const stopped = await fetch(`${h.httpUrl}/readyz`);
    expect(stopped.status).toBe(503);
    expect(await stopped.json()).toMatchObject({
      status: 'not ready',
      reason: expect.stringMatching(/^slack: /),
    });
  });

  describe('who may ask', () => {
    it('keeps to ALLOW_CHANNELS, a thread counting as its channel, and refuses elsewhere privately', async () => {
      await start({ env: { ALLOW_CHANNELS: CHANNEL } });
      h.model.script({ content: 'In the thread.' }, { content: 'Never.' });
      const parent = userTs();
      await ask(h, mention('in a thread of an allowed channel', { threadTs: parent }));
      expect(seen(replies(h, CHANNEL, parent))).toContain('In the thread.');
      await ask(h, mention('somewhere else', { channel: 'COTHER' }));
      expect(topLevel(h, 'COTHER')).toHaveLength(0);
      expect(h.slack.ephemerals.at(-1)).toMatchObject({
        channel: 'COTHER',
        user: ALICE,
        text: 'You can’t use this bot here.',
      });
      expect(h.model.requests).toHaveLength(1);
    });

    it('turns DMs away with ALLOW_DMS=false, in one private line', async () => {
      await start({ env: { ALLOW_DMS: 'false' } });
      await ask(h, directMessage('hello there'));
      expect(h.slack.ephemerals.at(-1)).toMatchObject({
        channel: 'D0001',
        text: 'You can’t use this bot here.',
      });
      expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
      expect(h.model.requests).toHaveLength(0);
    });

    it('never limits a workspace admin (users.info), and limits everyone else', async () => {
      await start({ env: { RATE_LIMIT_USER: '1/hour' } });
      h.model.script({ content: 'a1' }, { content: 'a2' }, { content: 'b1' }, { content: 'never' });
      await ask(h, mention('one', { user: ADMIN }));
      await ask(h, mention('two', { user: ADMIN }));
      await ask(h, mention('three'));
      await ask(h, mention('four'));
      expect(topLevel(h).map(visibleText)).toEqual([
        'a1',
        'a2',
        'b1',
        expect.stringMatching(/^:warning: You have reached the limit of 1 question per hour/),
      ]);
      expect(h.model.requests).toHaveLength(3);
    });
  });
});
