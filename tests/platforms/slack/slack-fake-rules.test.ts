import { webApi } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeSlack, STREAM_LIMITS, startFakeSlack } from '../../fakes/slack-server.js';

// biome-ignore lint/suspicious/noExplicitAny: Slack payloads are loose JSON.
type Json = any;

/** The fake Slack refuses what Slack refuses: each rule of STREAM_LIMITS, one test each. */
describe('fake Slack: the streaming contract', () => {
  let slack: FakeSlack;
  let client: webApi.WebClient;
  let clock = 1_000_000;
  beforeEach(async () => {
    clock = 1_000_000;
    slack = await startFakeSlack({ now: () => clock });
    client = new webApi.WebClient('xoxb-test', {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
    });
  });
  afterEach(async () => {
    await slack.close();
  });

  const chunk = (text: string) => [{ type: 'markdown_text' as const, text }];
  const start = (args: Json = {}) =>
    client.chat.startStream({
      channel: 'C1',
      thread_ts: '1.0',
      recipient_user_id: 'U1',
      recipient_team_id: 'T0001',
      chunks: chunk('a'),
      ...args,
    });
  const error = (promise: Promise<unknown>) =>
    promise.then(
      () => 'ok',
      (err: Json) => err.data?.error ?? err.code,
    );

  it('answers chat.startStream and chat.stopStream past their tier (20 a minute per workspace) with 429 and Retry-After', async () => {
    const limit = STREAM_LIMITS.perMinute['chat.startStream']!;
    const started = [];
    for (let i = 0; i < limit; i++) started.push((await start()).ts!);
    expect(await error(start())).toBe('slack_webapi_rate_limited_error');
    const refused = slack.calls.at(-1)!;
    expect(refused).toMatchObject({ status: 429, reply: { ok: false, error: 'ratelimited' } });
    // Another workspace has its own budget.
    expect(await error(start({ team_id: 'T0002' }))).toBe('ok');
    // Stops count on their own tier.
    for (const ts of started) await client.chat.stopStream({ channel: 'C1', ts });
    const extra = (await start({ team_id: 'T0003' })).ts!;
    clock += 1000;
    expect(await error(client.chat.stopStream({ channel: 'C1', ts: extra, team_id: 'T0001' } as Json))).toBe(
      'slack_webapi_rate_limited_error',
    );
    // A minute later the window has room again.
    clock += 60_000;
    expect(await error(start())).toBe('ok');
  });

  it('answers chat.appendStream past its tier (100 a minute per workspace) with 429', async () => {
    const { ts } = await start();
    const limit = STREAM_LIMITS.perMinute['chat.appendStream']!;
    for (let i = 0; i < limit; i++)
      await client.chat.appendStream({ channel: 'C1', ts: ts!, chunks: chunk('b') });
    expect(await error(client.chat.appendStream({ channel: 'C1', ts: ts!, chunks: chunk('c') }))).toBe(
      'slack_webapi_rate_limited_error',
    );
    expect(slack.calls.at(-1)!.status).toBe(429);
  });

  it('ends a stream when it is older than Slack keeps one: message_not_in_streaming_state', async () => {
    const { ts } = await start();
    clock += STREAM_LIMITS.streamLifetimeMs - 1;
    expect(await error(client.chat.appendStream({ channel: 'C1', ts: ts!, chunks: chunk('b') }))).toBe('ok');
    clock += 2;
    expect(await error(client.chat.appendStream({ channel: 'C1', ts: ts!, chunks: chunk('c') }))).toBe(
      'message_not_in_streaming_state',
    );
    expect(await error(client.chat.stopStream({ channel: 'C1', ts: ts! }))).toBe(
      'message_not_in_streaming_state',
    );
    expect(slack.messages[0]!.stream!.state).toBe('expired');
  });

  it("after Slack's stop is pressed, answers stopped_by_user and gives the agent_session_stopped event", async () => {
    const { ts } = await start({ thread_ts: '5.0' });
    const event = slack.pressStop(ts!, 'U1');
    expect(event).toMatchObject({
      type: 'event_callback',
      team_id: slack.team,
      event: {
        type: 'agent_session_stopped',
        channel: 'C1',
        user: 'U1',
        thread_ts: '5.0',
        streaming_message_ts: [ts],
      },
    });
    expect(await error(client.chat.appendStream({ channel: 'C1', ts: ts!, chunks: chunk('b') }))).toBe(
      'stopped_by_user',
    );
    expect(await error(client.chat.stopStream({ channel: 'C1', ts: ts! }))).toBe('stopped_by_user');
    // Pressed again, no stream was active.
    expect(slack.pressStop(ts!, 'U1').event.streaming_message_ts).toEqual([]);
  });

  it("refuses arguments @slack/web-api's types do not allow (invalid_arguments) and chunks Slack cannot take (invalid_chunks)", async () => {
    expect(await error(start({ chunks: undefined }))).toBe('invalid_arguments'); // neither markdown_text nor chunks
    expect(await error(start({ task_display_mode: 'cards' }))).toBe('invalid_arguments');
    expect(await error(start({ recipient: 'U1' }))).toBe('invalid_arguments'); // not an argument
    expect(await error(start({ thread_ts: undefined }))).toBe('invalid_arguments');
    const { ts } = await start();
    expect(await error(client.chat.appendStream({ channel: 'C1', ts: ts! }))).toBe('invalid_arguments');
    expect(
      await error(
        client.chat.appendStream({
          channel: 'C1',
          ts: ts!,
          chunks: [{ type: 'task_update', id: 't' } as Json],
        }),
      ),
    ).toBe('invalid_chunks');
    expect(await error(client.chat.stopStream({ channel: 'C1', ts: ts! }))).toBe('ok');
  });

  it('refuses a channel stream without its recipient, and another app’s stream (message_not_owned_by_app)', async () => {
    expect(await error(start({ recipient_team_id: undefined }))).toBe('missing_recipient_team_id');
    expect(await error(start({ recipient_user_id: undefined }))).toBe('missing_recipient_user_id');
    const { ts } = await start();
    slack.disown(ts!);
    expect(await error(client.chat.appendStream({ channel: 'C1', ts: ts!, chunks: chunk('b') }))).toBe(
      'message_not_owned_by_app',
    );
  });
});
