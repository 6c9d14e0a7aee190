import { webApi } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack, VIEW_LIMITS } from '../../fakes/slack-server.js';

/** The fake's `views.open` refuses what Slack refuses (VIEW_LIMITS). */
describe('fake Slack: views.open', () => {
  let slack: FakeSlack;
  let client: webApi.WebClient;
  beforeEach(async () => {
    slack = await startFakeSlack();
    client = new webApi.WebClient('xoxb-test', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
  });
  afterEach(async () => {
    await slack.close();
  });

  const section = (text: string) => ({ type: 'section' as const, text: { type: 'mrkdwn' as const, text } });
  const open = (
    blocks: ReturnType<typeof section>[],
    title = 'Arguments',
    trigger = `trigger.${Date.now()}`,
  ) =>
    client.views
      .open({
        trigger_id: trigger,
        view: { type: 'modal', title: { type: 'plain_text', text: title }, blocks },
      })
      .then(
        () => 'ok',
        (err: { data?: { error?: string } }) => err.data?.error,
      );

  it('takes sections up to 3,000 characters and 100 blocks, and no more', async () => {
    const full = section('x'.repeat(VIEW_LIMITS.sectionText));
    expect(await open(Array(VIEW_LIMITS.blocks).fill(full))).toBe('ok');
    expect(await open([section('x'.repeat(VIEW_LIMITS.sectionText + 1))])).toBe('invalid_arguments');
    expect(await open(Array(VIEW_LIMITS.blocks + 1).fill(section('x')))).toBe('invalid_arguments');
  });

  it('refuses a title over 24 characters, an unknown trigger and an expired one', async () => {
    expect(await open([section('x')], 'x'.repeat(VIEW_LIMITS.title + 1))).toBe('invalid_arguments');
    expect(await open([section('x')], 'ok', 'not-a-trigger')).toBe('invalid_trigger_id');
    const old = `trigger.${Date.now() - VIEW_LIMITS.triggerMs - 1}`;
    expect(await open([section('x')], 'ok', old)).toBe('expired_trigger_id');
  });
});
