import { webApi } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SESSION_RULES } from '../../fakes/slack-agent-sessions.js';
import { type FakeSlack, startFakeSlack } from '../../fakes/slack-server.js';

// biome-ignore lint/suspicious/noExplicitAny: Slack payloads are loose JSON.
type Json = any;

/** The fake Slack's agent sessions refuse what Slack refuses: each rule of SESSION_RULES, checked with the real WebClient. */
describe('fake Slack: agent sessions', () => {
  let slack: FakeSlack;
  let client: webApi.WebClient;
  const clientWith = (token: string) =>
    new webApi.WebClient(token, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
  beforeEach(async () => {
    slack = await startFakeSlack();
    client = clientWith('xoxb-test');
  });
  afterEach(async () => {
    await slack.close();
  });

  const error = (promise: Promise<unknown>) =>
    promise.then(
      () => 'ok',
      (err: Json) => err.data?.error ?? err.code,
    );
  const setStatus = (args: Json = {}) =>
    client.agents.sessions.setStatus({ channel_id: 'C1', thread_ts: '1.0', status: 'processing', ...args });

  it('makes a session on first use, titled only then; reports the status and the title it has', async () => {
    const made = await setStatus({ title: 'Scuba diving research' });
    expect(made).toMatchObject({
      ok: true,
      status: 'processing',
      agent_status: 'processing',
      title: 'Scuba diving research',
    });
    const again = await setStatus({ status: 'active', title: 'Something else' });
    expect(again).toMatchObject({ status: 'active', title: 'Scuba diving research' });
    expect(slack.agentSessions.get('C1', '1.0')).toMatchObject({ statuses: ['processing', 'active'] });
  });

  it('refuses a status outside active, processing, suspended, closed (invalid_status)', async () => {
    for (const status of SESSION_RULES.statuses) expect(await error(setStatus({ status }))).toBe('ok');
    expect(await error(setStatus({ status: 'working' }))).toBe('invalid_status');
  });

  it('wants thread_ts in channels and DMs (thread_ts_required), and the required arguments (invalid_arguments)', async () => {
    expect(await error(setStatus({ thread_ts: undefined }))).toBe('thread_ts_required');
    expect(
      await error(client.apiCall('agents.sessions.setStatus', { thread_ts: '1.0', status: 'active' })),
    ).toBe('invalid_arguments');
    expect(await error(setStatus({ loading_messages: ['x'] }))).toBe('invalid_arguments');
  });

  it('takes titles of at most 200 characters', async () => {
    const longest = 'x'.repeat(SESSION_RULES.titleChars);
    expect(await error(setStatus({ title: longest }))).toBe('ok');
    expect(await error(setStatus({ thread_ts: '2.0', title: `${longest}x` }))).toBe('invalid_arguments');
    const rename = (title: string) =>
      error(client.agents.sessions.rename({ channel_id: 'C1', thread_ts: '1.0', title }));
    expect(await rename(`${longest}x`)).toBe('invalid_arguments');
    expect(await rename('')).toBe('invalid_arguments');
  });

  it('renames only a session that exists (session_not_found)', async () => {
    const rename = () => client.agents.sessions.rename({ channel_id: 'C1', thread_ts: '1.0', title: 'Trip' });
    expect(await error(rename())).toBe('session_not_found');
    await setStatus();
    expect(await rename()).toMatchObject({ ok: true, title: 'Trip' });
  });

  it('takes bot tokens only (not_allowed_token_type)', async () => {
    expect(
      await error(
        clientWith('xoxp-user').agents.sessions.setStatus({
          channel_id: 'C1',
          thread_ts: '1.0',
          status: 'active',
        }),
      ),
    ).toBe('not_allowed_token_type');
  });

  it('refuses everything as a workspace without sessions does', async () => {
    for (const refusal of SESSION_RULES.refusals) {
      slack.agentSessions.behaviour.refuse = refusal;
      expect(await error(setStatus())).toBe(refusal);
    }
    expect(slack.agentSessions.sessions.size).toBe(0);
  });

  it('streams make a session (processing, untitled); the stop sets session_status (active by default); an expiry makes it active', async () => {
    const start = (thread: string) =>
      client.chat.startStream({
        channel: 'C1',
        thread_ts: thread,
        recipient_user_id: 'U1',
        recipient_team_id: 'T0001',
        markdown_text: 'a',
      });
    const first = await start('1.0');
    expect(slack.agentSessions.get('C1', '1.0')).toMatchObject({
      status: 'processing',
      title: undefined,
      createdBy: 'stream',
    });
    await client.chat.stopStream({ channel: 'C1', ts: first.ts!, session_status: 'suspended' });
    expect(slack.agentSessions.get('C1', '1.0')!.status).toBe('suspended');
    const second = await start('2.0');
    await client.chat.stopStream({ channel: 'C1', ts: second.ts! });
    expect(slack.agentSessions.get('C1', '2.0')!.status).toBe('active');
    const third = await start('3.0');
    expect(
      await error(client.chat.stopStream({ channel: 'C1', ts: third.ts!, session_status: 'done' })),
    ).toBe('invalid_arguments');
    slack.streaming.expireAfterAppends = 0;
    expect(await error(client.chat.appendStream({ channel: 'C1', ts: third.ts!, markdown_text: 'b' }))).toBe(
      'message_not_in_streaming_state',
    );
    expect(slack.agentSessions.get('C1', '3.0')!.status).toBe('active');
  });

  it("a person's rename gives agent_session_title_changed, previous_title only when there was one", async () => {
    await setStatus();
    const first = slack.renameSession('C1', '1.0', 'Trip', 'U1').event;
    expect(first).toMatchObject({
      type: 'agent_session_title_changed',
      channel: 'C1',
      thread_ts: '1.0',
      title: 'Trip',
      user: 'U1',
      team_id: 'T0001',
    });
    expect(first.previous_title).toBeUndefined();
    expect(slack.renameSession('C1', '1.0', 'Bora Bora', 'U1').event.previous_title).toBe('Trip');
  });
});
