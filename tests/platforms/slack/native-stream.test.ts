import { webApi } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../src/core/logger.js';
import { createNativeStream, STREAM_MAX_AGE_MS } from '../../../src/platforms/slack/native-stream.js';
import { createStreamBudget } from '../../../src/platforms/slack/stream-budget.js';
import { type FakeSlack, startFakeSlack } from '../../fakes/slack-server.js';

describe('native stream (a real WebClient against the fake Slack)', () => {
  let slack: FakeSlack;
  let client: webApi.WebClient;
  beforeEach(async () => {
    slack = await startFakeSlack();
    client = new webApi.WebClient('xoxb-test', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
  });
  afterEach(async () => {
    await slack.close();
  });

  const open = (now: () => number) =>
    createNativeStream({
      client,
      channel: 'C1',
      threadTs: '1.0',
      recipient: { userId: 'U1', teamId: 'T1' },
      taskDisplay: 'timeline',
      intervalMs: 0,
      logger: createLogger({ level: 'silent', secrets: [] }),
      onUnstarted: () => {},
      ticket: createStreamBudget(undefined, now).take('T1')!,
      now,
    });

  it('stops a stream at its age limit, with the chunk at hand in the stop; later chunks are for a new message', async () => {
    let clock = 1_000_000;
    const stream = open(() => clock);
    stream.push({ type: 'markdown_text', text: 'Early words. ' });
    expect(await stream.ts()).toBeDefined();
    await vi.waitFor(() => expect(slack.calls).toHaveLength(1));
    clock += STREAM_MAX_AGE_MS + 1;
    stream.push({ type: 'markdown_text', text: 'Late words.' });
    await vi.waitFor(() => expect(stream.closedBy).toBe('age'));
    stream.push({ type: 'markdown_text', text: ' Too late.' });
    expect(await stream.stop({ chunks: [] })).toBe('ended');
    expect(slack.callsTo('chat.appendStream')).toEqual([]);
    expect(slack.callsTo('chat.stopStream').map((c) => c.args.chunks)).toEqual([
      [{ type: 'markdown_text', text: 'Late words.' }],
    ]);
    expect(stream.textsLanded).toBe(2);
    expect(slack.messages[0]!.stream!.state).toBe('stopped');
  });

  it('batches what arrives while a call is in flight: neighbouring text joined, each task in its latest state', async () => {
    const stream = open(Date.now);
    // The first chunk starts the stream; the rest wait for that call and go together.
    stream.push({ type: 'task_update', id: 't0', title: 'Thought', status: 'complete' });
    stream.push({ type: 'task_update', id: 't1', title: 'Action: calculator', status: 'in_progress' });
    stream.push({ type: 'markdown_text', text: 'a ' });
    stream.push({ type: 'markdown_text', text: 'b' });
    stream.push({ type: 'task_update', id: 't1', title: 'Action: calculator', status: 'complete' });
    expect(await stream.stop({ chunks: [] })).toBe('stopped');
    // Stopping, what is queued goes with the stop: one call fewer.
    expect(slack.callsTo('chat.appendStream')).toEqual([]);
    expect(slack.callsTo('chat.stopStream').map((c) => c.args.chunks)).toEqual([
      [
        { type: 'task_update', id: 't1', title: 'Action: calculator', status: 'complete' },
        { type: 'markdown_text', text: 'a b' },
      ],
    ]);
    expect(slack.messages[0]!.text).toBe('a b');
  });
});
