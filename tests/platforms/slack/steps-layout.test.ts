import { webApi } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStepReplies, createStepsMessage } from '../../../src/platforms/slack/steps-layout.js';
import { type FakeSlack, startFakeSlack, visibleText } from '../../fakes/slack-server.js';

describe('steps layouts (a real WebClient against the fake Slack)', () => {
  let slack: FakeSlack;
  let client: webApi.WebClient;
  const errors: unknown[] = [];
  beforeEach(async () => {
    slack = await startFakeSlack();
    client = new webApi.WebClient('xoxb-test', { slackApiUrl: slack.apiUrl });
    errors.length = 0;
  });
  afterEach(async () => {
    await slack.close();
  });

  it('thread layout: keeps steps in one edited message, and starts another when it is full', async () => {
    const steps = createStepsMessage({
      client,
      place: { channel: 'C1', threadTs: '1.0' },
      intervalMs: 0,
      after: Promise.resolve(),
      onError: (err) => errors.push(err),
    });
    const lines = Array.from({ length: 10 }, (_, i) => `*Observation:* step ${i} ${'x'.repeat(2800)}`);
    for (const line of lines) steps.add(line);
    await steps.finish();

    expect(errors).toEqual([]);
    const messages = slack.messages.filter((m) => m.threadTs === '1.0');
    expect(messages.length).toBe(3); // four sections of one long step each, then a new message
    for (const m of messages) expect(m.blocks!.length).toBeLessThanOrEqual(4);
    const shown = messages.map(visibleText).join('\n');
    const at = lines.map((line) => shown.indexOf(line));
    expect(at.every((i) => i >= 0)).toBe(true); // every step is shown…
    expect(at).toEqual([...at].sort((a, b) => a - b)); // …in order
  });

  it('channel layout: one reply per step under the parent, in order; none without a parent', async () => {
    const steps = createStepReplies({
      client,
      channel: 'C1',
      parent: async () => '2.0',
      onError: (err) => errors.push(err),
    });
    for (const line of ['*Thought:* a', '*Action:* `b`', '*Observation:*\n> c']) steps.add(line);
    await steps.finish();
    expect(slack.messages.map((m) => [m.threadTs, visibleText(m)])).toEqual([
      ['2.0', '*Thought:* a'],
      ['2.0', '*Action:* `b`'],
      ['2.0', '*Observation:*\n> c'],
    ]);

    const orphan = createStepReplies({
      client,
      channel: 'C1',
      parent: async () => undefined,
      onError: () => {},
    });
    orphan.add('*Thought:* lost');
    await orphan.finish();
    expect(slack.messages).toHaveLength(3);
  });
});
